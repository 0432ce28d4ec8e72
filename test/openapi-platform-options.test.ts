// The OpenAPI document describes each platform's platformSpecificData (docs/openapi.json, which
// test/openapi.test.ts keeps equal to the served document): one named component per post platform
// (RedditData …), with the keys its validator reads, closed so that a generated client refuses a
// misspelt key; the server still answers unknown keys with warnings, and the document says so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { POST_PLATFORMS } from '../src/modules/posts/schemas.ts';
import { POST_DEFINITIONS } from '../src/platforms/registry.ts';
import { ROOT } from './harness/cli.ts';

interface Schema {
  title?: string;
  description?: string;
  type?: string;
  $ref?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean;
}

// Each post platform's options schema and its title, from its definition.
const DATA = Object.fromEntries(POST_DEFINITIONS.map((d) => [d.name, d.publishing.data as unknown as Schema & { properties: Record<string, Schema> }]));
const TITLES = Object.fromEntries(POST_DEFINITIONS.map((d) => [d.name, (d.publishing.data as { title?: string }).title ?? '?']));

interface Doc {
  paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
}

const document = (): Doc => JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as Doc;

function platformSpecificData(doc: Doc): Schema {
  const body = doc.paths['/posts']?.post?.requestBody.content['application/json']?.schema;
  const schema = body?.properties?.platforms?.items?.properties?.platformSpecificData;
  assert.ok(schema, 'createPost has platforms[].platformSpecificData');
  return schema;
}

describe('OpenAPI: platformSpecificData per platform', () => {
  test('refers to one closed component per post platform, with the keys its validator reads', () => {
    const doc = document();
    const schema = platformSpecificData(doc);
    const refs = (schema.anyOf ?? []).map((branch) => branch.$ref);
    assert.deepEqual(refs, POST_DEFINITIONS.map((d) => `#/components/schemas/${(d.publishing.data as { title?: string }).title ?? '?'}`));
    for (const platform of POST_PLATFORMS) {
      const title = TITLES[platform] ?? '?';
      assert.ok(schema.description?.includes(`${platform} (${title})`), `the description names ${platform}`);
      const component = doc.components.schemas[title];
      assert.ok(component, `a component for ${platform}`);
      assert.equal(component.title, title);
      assert.equal(component.type, 'object');
      assert.equal(component.additionalProperties, false, `${platform}: closed in the document, so generated clients refuse a misspelt key`);
      assert.deepEqual(Object.keys(component.properties ?? {}), Object.keys(DATA[platform]?.properties ?? {}), platform);
      for (const [key, property] of Object.entries(component.properties ?? {})) assert.ok(property.type ?? ('enum' in property ? 'enum' : undefined), `${platform}.${key} has a type`);
    }
  });

  test('says both: generated clients refuse unknown keys, the server answers them as warnings', () => {
    const doc = document() as Doc & { info: { description: string } };
    const description = platformSpecificData(doc).description ?? '';
    assert.match(description, /additionalProperties: false/);
    assert.match(description, /compile time/);
    assert.match(description, /warnings/);
    assert.match(doc.info.description, /platformSpecificData is typed per platform/);
  });

  test('as a JSON schema it takes each platform\'s keys and refuses a misspelt one', () => {
    const doc = document();
    const ajv = new Ajv({ strict: false });
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const validate = ajv.compile(platformSpecificData(doc));
    for (const value of [{}, { subreddit: 'typescript', title: 'Hi' }, { firstComment: 'x', contentType: 'story' }]) {
      assert.equal(validate(value), true, JSON.stringify(value));
    }
    for (const value of [{ subredit: 'typescript' }, 'x', 5, null, [], [{}]]) assert.equal(validate(value), false, JSON.stringify(value));
  });
});
