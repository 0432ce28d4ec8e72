// The platform options schemas (src/platforms/<platform>/options.ts) and the validators that read
// them (src/modules/posts/validate/): the publishing guide's examples pass both, a wrong type is refused by
// the schema and by the validator with the 400 it always gave, no key of the wrong type reaches
// the stored options, and what validateTarget stores always matches the platform's typed options
// schema, so publishers can rely on the exported types. No database: validateTarget alone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError } from '../src/http/errors.ts';
import { parseStoredOptions, validateTarget, type PostPlatform, type TargetResult } from '../src/modules/posts/validate/index.ts';
import { POST_DEFINITIONS } from '../src/platforms/registry.ts';
import { ROOT } from './harness/cli.ts';

// Every post platform's schemas, from its definition: a platform added as one folder is covered.
const SCHEMAS = Object.fromEntries(POST_DEFINITIONS.map((d) => [d.name, { data: d.publishing.data, options: d.publishing.options }])) as unknown as Record<
  PostPlatform,
  { data: TSchema & { properties: Record<string, TSchema> }; options: TSchema }
>;
const PLATFORMS = Object.keys(SCHEMAS) as PostPlatform[];
const PHOTO = 'https://media.example/files/pixel.jpg';
const IMG = 'https://cdn.example/a.jpg';
const VID = 'https://cdn.example/v.mp4';
const BOARD = '800000000000000001';

function run(platform: PostPlatform, data: Record<string, unknown>, options: { live?: boolean; content?: string } = {}): TargetResult {
  return validateTarget(platform, { content: options.content ?? 'Hello there', data: structuredClone(data), live: options.live ?? false, path: 'platforms[0]', allowHttp: false });
}

function refusal(platform: PostPlatform, data: Record<string, unknown>, options: { live?: boolean; content?: string } = {}): string {
  try {
    run(platform, data, options);
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 400);
    return error.message;
  }
  return assert.fail(`${platform} ${JSON.stringify(data)} was accepted`);
}

/** The platformSpecificData of each marked "Your first posts" block of the publishing guide
 * (the photo, the video and the board id the blocks read first stand in as fixed values). */
function readmeExamples(): Map<string, Record<string, unknown>> {
  const readme = readFileSync(join(ROOT, 'docs/guides/publishing.md'), 'utf8');
  const out = new Map<string, Record<string, unknown>>();
  for (const [, name = '', block = ''] of readme.matchAll(/<!-- readme-example: (\w+) -->\n *```sh\n([\s\S]*?)```/g)) {
    const json = /<<EOF\n([\s\S]*?)\n *EOF/.exec(block)?.[1];
    if (!json) continue;
    const body = JSON.parse(json.replace(/\$PHOTO/g, PHOTO).replace(/\$VIDEO/g, VID).replace(/\$BOARD/g, BOARD).replace(/\$[A-Z]+/g, 'acc_x')) as { platforms: Array<{ platformSpecificData?: Record<string, unknown> }> };
    out.set(name, body.platforms[0]?.platformSpecificData ?? {});
  }
  return out;
}

describe('platform options schemas', () => {
  test("the publishing guide's examples pass the schema and the live rules, with no warnings, into typed options", () => {
    const examples = readmeExamples();
    assert.deepEqual([...examples.keys()].sort(), [...PLATFORMS].sort());
    for (const platform of PLATFORMS) {
      const data = examples.get(platform) ?? {};
      assert.ok(Value.Check(SCHEMAS[platform].data, data), `${platform}: ${JSON.stringify([...Value.Errors(SCHEMAS[platform].data, data)])}`);
      const result = run(platform, data, { live: true });
      assert.equal(result.platform, platform);
      assert.deepEqual(result.warnings, []);
      assert.ok(Value.Check(SCHEMAS[platform].options, result.options), `${platform}: ${JSON.stringify(result.options)}`);
    }
  });

  test("the normalised options are pinned for the publishing guide's examples (what publishers read)", () => {
    const examples = readmeExamples();
    const stored = (platform: PostPlatform) => JSON.parse(JSON.stringify(run(platform, examples.get(platform) ?? {}, { live: true }).options)) as unknown;
    assert.deepEqual(stored('reddit'), { subreddit: 'sandbox', title: 'Hello from socialapi' });
    assert.deepEqual(stored('instagram'), { firstComment: 'Open every day', altText: 'A grey square', kind: 'IMAGE', mediaUrls: [PHOTO] });
    assert.deepEqual(stored('facebook'), { firstComment: 'Ask us about it', contentType: 'feed', mediaUrls: [PHOTO], mediaType: 'IMAGE' });
    assert.deepEqual(stored('threads'), { topicTag: 'baking', replyControl: 'everyone', mediaType: 'IMAGE', mediaUrls: [PHOTO], altTexts: ['A grey square'] });
    assert.deepEqual(stored('tiktok'), { title: 'Our bakery', privacyLevel: 'SELF_ONLY', mediaType: 'image', mediaUrls: [PHOTO] });
    assert.deepEqual(stored('youtube'), { mediaUrl: VID, title: 'Sourdough, start to finish', madeForKids: false, tags: ['bread', 'sourdough'], firstComment: 'Recipe in the description' });
    assert.deepEqual(stored('pinterest'), { boardId: BOARD, title: 'Rye loaf', link: 'https://example.com/rye', altText: 'A grey square', mediaType: 'IMAGE', mediaUrls: [PHOTO] });
    assert.deepEqual(stored('bluesky'), { langs: ['en'], replyControl: 'mentioned', firstComment: 'Open every day', mediaUrls: [PHOTO], altTexts: ['A grey square'] });
  });

  test('stored options read back as the typed value of their platform, and a row of another shape as null', () => {
    const examples = readmeExamples();
    for (const platform of PLATFORMS) {
      const { options } = run(platform, examples.get(platform) ?? {}, { live: true });
      assert.deepEqual(parseStoredOptions(platform, JSON.stringify(options)), { platform, options });
    }
    assert.equal(parseStoredOptions('instagram', JSON.stringify({ mediaUrls: [PHOTO] })), null, 'kind is missing');
    assert.equal(parseStoredOptions('tiktok', JSON.stringify({ mediaType: 'image', privacyLevel: 'FRIENDS' })), null);
    assert.equal(parseStoredOptions('whatsapp', '{}'), null);
  });

  // One wrong type per platform: refused by the schema, and by the validator with the message
  // the API has always answered.
  const WRONG: Array<[PostPlatform, Record<string, unknown>, string]> = [
    ['reddit', { subreddit: 5 }, 'platforms[0].platformSpecificData.subreddit: must be a string'],
    ['reddit', { title: 'x'.repeat(301) }, 'platforms[0].platformSpecificData.title: must have at most 300 characters'],
    ['instagram', { mediaUrl: IMG, commentsEnabled: 'no' }, 'platforms[0].platformSpecificData.commentsEnabled: must be a boolean'],
    ['instagram', { mediaUrl: IMG, collaborators: ['a', 'b', 'c', 'd'] }, 'platforms[0].platformSpecificData.collaborators: at most 3 usernames'],
    ['instagram', { mediaUrl: VID, trialParams: { graduationStrategy: 'AUTO' } }, 'platforms[0].platformSpecificData.trialParams.graduationStrategy: must be one of MANUAL, SS_PERFORMANCE'],
    ['facebook', { contentType: 'album' }, 'platforms[0].platformSpecificData.contentType: must be one of feed, reel, story'],
    ['facebook', { mediaUrls: Array(11).fill(IMG) }, 'platforms[0].platformSpecificData.mediaUrls: must have 1 to 10 items'],
    ['threads', { topicTag: 'a&b' }, 'platforms[0].platformSpecificData.topicTag: may not contain . or &'],
    ['threads', { threadItems: [{ content: 5 }] }, 'platforms[0].platformSpecificData.threadItems[0].content: must be a string'],
    ['tiktok', { privacyLevel: 'FRIENDS' }, 'platforms[0].platformSpecificData.privacyLevel: must be one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY'],
    ['tiktok', { mediaUrl: VID, videoCoverTimestampMs: 1.5 }, 'platforms[0].platformSpecificData.videoCoverTimestampMs: must be an integer'],
    ['linkedin', { visibility: 'FRIENDS' }, 'platforms[0].platformSpecificData.visibility: must be one of PUBLIC, CONNECTIONS, LOGGED_IN'],
    ['linkedin', { firstComment: 'x'.repeat(1251) }, 'platforms[0].platformSpecificData.firstComment: must have at most 1250 characters'],
    ['x', { replySettings: 'nobody' }, 'platforms[0].platformSpecificData.replySettings: must be one of everyone, following, mentionedUsers, subscribers, verified'],
    ['x', { poll: { options: ['a'], durationMinutes: 60 } }, 'platforms[0].platformSpecificData.poll.options: must have 2 to 4 options'],
    ['x', { threadItems: [{ content: 5 }] }, 'platforms[0].platformSpecificData.threadItems[0].content: must be a string'],
    ['youtube', { privacyStatus: 'hidden' }, 'platforms[0].platformSpecificData.privacyStatus: must be one of public, unlisted, private'],
    ['youtube', { title: 'x'.repeat(101) }, 'platforms[0].platformSpecificData.title: must have at most 100 characters'],
    ['pinterest', { boardId: 'recipes' }, 'platforms[0].platformSpecificData.boardId: must be a string of digits (a Pinterest id)'],
    ['pinterest', { altText: 'x'.repeat(501) }, 'platforms[0].platformSpecificData.altText: must have at most 500 characters'],
  ];
  for (const [platform, data, message] of WRONG) {
    test(`${platform}: ${JSON.stringify(data).slice(0, 60)} is refused by the schema and answers "${message.split(': ').pop() ?? ''}"`, () => {
      assert.equal(Value.Check(SCHEMAS[platform].data, data), false);
      assert.equal(refusal(platform, data), message);
    });
  }

  test('a wrong type of any key is refused with a 400 naming the key, or skipped with a warning: never stored', () => {
    const wrong = (schema: TSchema): unknown => {
      const type = 'type' in schema ? schema.type : undefined;
      return type === 'string' || type === undefined ? 5 : type === 'boolean' ? 'yes' : 'x';
    };
    // Options under which the key applies (a video for Reels keys, a photo post for photo keys);
    // a platform not listed is tried with no other key.
    const bases: Partial<Record<PostPlatform, Array<Record<string, unknown>>>> = {
      reddit: [{}],
      instagram: [{ mediaUrl: IMG }, { mediaUrl: VID }, { mediaUrls: [IMG, IMG] }],
      facebook: [{}, { mediaUrl: VID }],
      threads: [{}],
      tiktok: [{}, { mediaType: 'image', mediaUrls: [IMG] }],
      linkedin: [{}, { mediaUrl: IMG }],
      x: [{}, { mediaUrl: IMG }],
      youtube: [{}, { mediaUrl: VID }],
      pinterest: [{ mediaUrl: IMG }, { mediaUrl: VID }],
      bluesky: [{}, { mediaUrl: IMG }],
    };
    for (const platform of PLATFORMS) {
      for (const [key, schema] of Object.entries(SCHEMAS[platform].data.properties)) {
        const value = wrong(schema);
        for (const base of bases[platform] ?? [{}]) {
          // mediaUrl and mediaUrls together are refused for that reason alone.
          const media = key === 'mediaUrl' || key === 'mediaUrls' ? Object.fromEntries(Object.entries(base).filter(([k]) => !k.startsWith('mediaUrl'))) : base;
          const data = { ...media, [key]: value };
          assert.equal(Value.Check(SCHEMAS[platform].data, data), false, `${platform}.${key}`);
          let result: TargetResult | undefined;
          try {
            result = run(platform, data);
          } catch (error) {
            assert.ok(error instanceof ApiError && error.status === 400, `${platform}.${key}: ${String(error)}`);
            assert.match(error.message, new RegExp(`^platforms\\[0\\]\\.platformSpecificData\\.${key}\\b`), `${platform}.${key}`);
            continue;
          }
          assert.ok(
            result.warnings.some((w) => w.key === key),
            `${platform}.${key} = ${JSON.stringify(value)} was neither refused nor skipped: ${JSON.stringify(result.options)}`,
          );
          assert.equal(key in result.options, false, `${platform}.${key}`);
        }
      }
    }
  });

  test('whatever validateTarget keeps matches the typed options schema of its platform', () => {
    // A seeded walk over plausible and hostile values: every accepted target's options are checked.
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    const values: unknown[] = [null, true, false, 0, 1, 2, 0.5, 'x', '', 'sandbox', 'baking', '123', IMG, VID, 'IMAGE', 'VIDEO', 'CAROUSEL', 'TEXT', 'feed', 'reel', 'story', 'image', 'video',
      'everyone', 'SELF_ONLY', 'PUBLIC_TO_EVERYONE', [IMG], [IMG, IMG], [VID], [IMG, IMG, IMG], ['a', 'b'], ['alt', null], [{ username: 'bob', x: 0.5, y: 0.5 }], [{ username: 'bob' }],
      { graduationStrategy: 'MANUAL' }, [{ content: 'one' }, { content: 'two', mediaUrl: IMG, altText: 'alt' }], [{ content: 'a', mediaUrls: [IMG, VID] }], 'https://example.com/page'];
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const platform = pick(PLATFORMS);
      const keys = Object.keys(SCHEMAS[platform].data.properties);
      const data: Record<string, unknown> = {};
      for (let k = 0; k < 1 + Math.floor(random() * 5); k++) data[pick(keys)] = pick(values);
      let result: TargetResult;
      try {
        result = run(platform, data, { live: random() < 0.5 });
      } catch {
        continue;
      }
      accepted++;
      assert.equal(result.platform, platform);
      assert.ok(Value.Check(SCHEMAS[platform].options, result.options), `${platform} ${JSON.stringify(data)} → ${JSON.stringify(result.options)}: ${JSON.stringify([...Value.Errors(SCHEMAS[platform].options, result.options)].slice(0, 2))}`);
      assert.ok(Object.values(result.options).every((v) => v !== undefined), 'no undefined keys (the stored JSON is the object)');
    }
    assert.ok(accepted > 1_000, `only ${accepted} accepted`);
  });
});
