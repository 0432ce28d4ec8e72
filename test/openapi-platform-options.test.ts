// The OpenAPI document describes each platform's platformSpecificData (docs/openapi.json, which
// test/openapi.test.ts keeps equal to the served document): one schema per post platform, with
// the keys its validator reads, and a last branch that takes any object, so the request body's
// JSON schema refuses nothing that the platform validators would only warn about.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { POST_PLATFORMS } from '../src/modules/posts/schemas.ts';
import { FacebookData } from '../src/platforms/facebook/options.ts';
import { InstagramData } from '../src/platforms/instagram/options.ts';
import { LinkedInData } from '../src/platforms/linkedin/options.ts';
import { PinterestData } from '../src/platforms/pinterest/options.ts';
import { RedditData } from '../src/platforms/reddit/options.ts';
import { ThreadsData } from '../src/platforms/threads/options.ts';
import { TiktokData } from '../src/platforms/tiktok/options.ts';
import { XData } from '../src/platforms/x/options.ts';
import { YouTubeData } from '../src/platforms/youtube/options.ts';
import { ROOT } from './harness/cli.ts';

interface Schema {
  title?: string;
  description?: string;
  type?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean;
}

const DATA = { reddit: RedditData, instagram: InstagramData, facebook: FacebookData, threads: ThreadsData, tiktok: TiktokData, x: XData, linkedin: LinkedInData, youtube: YouTubeData, pinterest: PinterestData };
const TITLES = { reddit: 'RedditData', instagram: 'InstagramData', facebook: 'FacebookData', threads: 'ThreadsData', tiktok: 'TiktokData', x: 'XData', linkedin: 'LinkedInData', youtube: 'YouTubeData', pinterest: 'PinterestData' };

function platformSpecificData(): Schema {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>> };
  const body = doc.paths['/posts']?.post?.requestBody.content['application/json']?.schema;
  const schema = body?.properties?.platforms?.items?.properties?.platformSpecificData;
  assert.ok(schema, 'createPost has platforms[].platformSpecificData');
  return schema;
}

describe('OpenAPI: platformSpecificData per platform', () => {
  test('names every post platform, each with its schema and the keys its validator reads', () => {
    const schema = platformSpecificData();
    const branches = schema.anyOf ?? [];
    for (const platform of POST_PLATFORMS) {
      const title = TITLES[platform];
      assert.ok(schema.description?.includes(`${platform} (${title})`), `the description names ${platform}`);
      const branch = branches.find((b) => b.title === title);
      assert.ok(branch, `a branch for ${platform}`);
      assert.equal(branch.type, 'object');
      assert.equal(branch.additionalProperties, true, `${platform}: unknown keys are warnings, not refused`);
      assert.deepEqual(Object.keys(branch.properties ?? {}), Object.keys(DATA[platform].properties), platform);
      for (const [key, property] of Object.entries(branch.properties ?? {})) assert.ok(property.type ?? ('enum' in property ? 'enum' : undefined), `${platform}.${key} has a type`);
    }
    assert.equal(branches.length, POST_PLATFORMS.length + 1);
    const last = branches.at(-1);
    assert.deepEqual({ type: last?.type, additionalProperties: last?.additionalProperties, properties: Object.keys(last?.properties ?? {}) }, { type: 'object', additionalProperties: true, properties: [] });
  });

  test('as a JSON schema it accepts any object (keys of the wrong type for some platform included) and refuses what is no object', () => {
    const validate = new Ajv({ strict: false }).compile(platformSpecificData());
    for (const value of [{}, { subreddit: 5, mediaUrl: 5 }, { firstComment: 'x'.repeat(9000), contentType: 'story' }, { privacyLevel: 'FRIENDS', mediaType: 'GIF', threadItems: 'x' }]) {
      assert.equal(validate(value), true, JSON.stringify(value));
    }
    for (const value of ['x', 5, null, [], [{}]]) assert.equal(validate(value), false, JSON.stringify(value));
  });
});
