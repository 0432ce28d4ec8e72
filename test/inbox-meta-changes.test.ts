// Reading stored Meta webhook bodies into inbound comments (platforms.md §8.3, §8.4, §2.9): what
// each change becomes, what is deliberately ignored, and what waits for a handler.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMetaEnvelope } from '../src/modules/platform-webhooks/meta-changes.ts';

const envelope = (object: string, ...changes: Array<{ field: string; value: unknown }>) => JSON.stringify({ object, entry: [{ id: '900', time: 1, changes }] });

describe('parseMetaEnvelope', () => {
  test('instagram comments: a top-level comment and a reply, with the commenter', () => {
    const parsed = parseMetaEnvelope(
      envelope(
        'instagram',
        { field: 'comments', value: { id: 'c1', text: 'nice', from: { id: 'p1', username: 'dana' }, media: { id: 'm1', media_product_type: 'FEED' } } },
        { field: 'comments', value: { id: 'c2', text: 'yes', from: { id: 'p2', username: 'sam' }, media: { id: 'm1' }, parent_id: 'c1' } },
      ),
    );
    assert.deepEqual(parsed.items, [
      { platform: 'instagram', accountPlatformId: '900', kind: 'comment', dedupeKey: 'c1', platformPostId: 'm1', comment: { id: 'c1', text: 'nice', username: 'dana', parentId: null }, fromId: 'p1' },
      { platform: 'instagram', accountPlatformId: '900', kind: 'reply', dedupeKey: 'c2', platformPostId: 'm1', comment: { id: 'c2', text: 'yes', username: 'sam', parentId: 'c1' }, fromId: 'p2' },
    ]);
    assert.deepEqual([parsed.ignored, parsed.unhandled], [[], []]);
  });

  test('instagram mentions carry ids only: a caption mention is keyed on the media, a comment mention on the comment', () => {
    const parsed = parseMetaEnvelope(envelope('instagram', { field: 'mentions', value: { media_id: 'm2' } }, { field: 'mentions', value: { media_id: 'm3', comment_id: 'c3' } }));
    assert.deepEqual(parsed.items.map((i) => [i.kind, i.dedupeKey, i.platformPostId, i.comment]), [
      ['mention', 'media:m2', 'm2', { id: 'm2', text: '', username: null, parentId: null }],
      ['mention', 'comment:c3', 'm3', { id: 'c3', text: '', username: null, parentId: null }],
    ]);
  });

  test('Page feed: an added comment (its parent is the post when top-level), other verbs and items ignored', () => {
    const comment = { item: 'comment', post_id: '900_1', comment_id: '1_5', from: { id: 'p1', name: 'Dana W' }, message: 'how much?' };
    const parsed = parseMetaEnvelope(
      envelope(
        'page',
        { field: 'feed', value: { ...comment, verb: 'add', parent_id: '900_1' } },
        { field: 'feed', value: { ...comment, comment_id: '1_6', verb: 'add', parent_id: '1_5' } },
        { field: 'feed', value: { ...comment, verb: 'edited', parent_id: '900_1' } },
        { field: 'feed', value: { item: 'reaction', verb: 'add', post_id: '900_1', reaction_type: 'love' } },
      ),
    );
    assert.deepEqual(parsed.items.map((i) => [i.platform, i.kind, i.platformPostId, i.comment]), [
      ['facebook', 'comment', '900_1', { id: '1_5', text: 'how much?', username: 'Dana W', parentId: null }],
      ['facebook', 'reply', '900_1', { id: '1_6', text: 'how much?', username: 'Dana W', parentId: '1_5' }],
    ]);
    assert.deepEqual(parsed.ignored, ['page.feed comment edited', 'page.feed reaction add']);
  });

  test('changes without their ids are ignored, not guessed at; messaging and other fields wait for a handler', () => {
    const parsed = parseMetaEnvelope(envelope('instagram', { field: 'comments', value: { text: 'no id' } }, { field: 'mentions', value: 'nonsense' }, { field: 'story_insights', value: {} }));
    assert.deepEqual(parsed.items, []);
    assert.deepEqual(parsed.ignored, ['instagram.comments without its ids', 'instagram.mentions without its ids']);
    assert.deepEqual(parsed.unhandled, ['instagram.story_insights']);
    const messaging = parseMetaEnvelope(JSON.stringify({ object: 'page', entry: [{ id: '900', messaging: [{ message: { mid: 'x' } }] }] }));
    assert.deepEqual(messaging.unhandled, ['page.messaging']);
    assert.deepEqual(parseMetaEnvelope('not json'), { object: null, items: [], ignored: ['a body that is not JSON'], unhandled: [] });
    // An entry without its id cannot name an account.
    assert.deepEqual(parseMetaEnvelope(JSON.stringify({ object: 'instagram', entry: [{ changes: [{ field: 'comments', value: { id: 'c9' } }] }] })).ignored, ['instagram.comments without its ids']);
  });
});
