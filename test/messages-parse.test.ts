// Reading Meta's messaging webhook items (platforms.md §8.5, §2.9) and the Send API's refusals
// (§2.8, §3.3): what each item becomes and its dedupe key (a retry has the same, a new event
// another), what is ignored, and which Graph errors are a closed window or an unreachable person.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMetaMessaging } from '../src/modules/platform-webhooks/meta-messaging.ts';
import { messagingError } from '../src/platforms/meta/messaging-errors.ts';
import { PlatformError } from '../src/platforms/errors.ts';
import { toApiError } from '../src/platforms/errors.ts';

const envelope = (object: string, ...messaging: unknown[]) => JSON.stringify({ object, entry: [{ id: '900', time: 1, messaging }] });
const base = { sender: { id: 'p1' }, recipient: { id: '900' }, timestamp: 1700000000123 };

describe('parseMetaMessaging', () => {
  test('a message, an echo, a postback: the person, the text, attachments, the mid as key', () => {
    const { items, ignored } = parseMetaMessaging(
      envelope(
        'page',
        { ...base, message: { mid: 'm1', text: 'hi', attachments: [{ type: 'image', payload: { url: 'https://x/a.jpg' } }] } },
        { sender: { id: '900' }, recipient: { id: 'p1' }, timestamp: 5, message: { mid: 'm2', is_echo: true, app_id: 1, text: 'hello' } },
        { ...base, postback: { mid: 'm3', title: 'Start', payload: 'GET_STARTED' } },
      ),
    );
    assert.deepEqual(ignored, []);
    assert.deepEqual(items.map((i) => [i.platform, i.kind, i.participantId, i.dedupeKey, i.text]), [
      ['facebook', 'message', 'p1', 'message:m1', 'hi'],
      ['facebook', 'echo', 'p1', 'echo:m2', 'hello'],
      ['facebook', 'postback', 'p1', 'postback:m3', 'Start'],
    ]);
    assert.deepEqual(items[0]?.attachments, [{ type: 'image', url: 'https://x/a.jpg' }]);
    assert.equal(items[0]?.timestamp, 1700000000123);
    assert.deepEqual(items[2]?.postback, { title: 'Start', payload: 'GET_STARTED' });
  });

  test('reads, deliveries and reactions: keys that tell a retry from a new event', () => {
    const parse = (...m: unknown[]) => parseMetaMessaging(envelope('instagram', ...m)).items;
    const [read] = parse({ ...base, read: { mid: 'm9' } });
    assert.deepEqual([read?.platform, read?.kind, read?.dedupeKey, read?.mid], ['instagram', 'read', 'read:p1:m9', 'm9']);
    const [watermark] = parseMetaMessaging(envelope('page', { ...base, read: { watermark: 1700000000000 } })).items;
    assert.deepEqual([watermark?.dedupeKey, watermark?.watermark], ['read:p1:1700000000000', 1700000000000]);
    const [d1] = parse({ ...base, delivery: { mids: ['a', 'b'], watermark: 7 } });
    const [d2] = parse({ ...base, delivery: { mids: ['a', 'c'], watermark: 7 } });
    assert.notEqual(d1?.dedupeKey, d2?.dedupeKey);
    assert.deepEqual(d1?.mids, ['a', 'b']);
    const [react, unreact, again] = parse(
      { ...base, reaction: { mid: 'm1', action: 'react', reaction: 'love', emoji: '❤' } },
      { ...base, timestamp: base.timestamp + 1, reaction: { mid: 'm1', action: 'unreact' } },
      { ...base, timestamp: base.timestamp + 2, reaction: { mid: 'm1', action: 'react', reaction: 'love', emoji: '❤' } },
    );
    assert.deepEqual(react?.reaction, { action: 'react', emoji: '❤' });
    assert.deepEqual(unreact?.reaction, { action: 'unreact', emoji: null });
    assert.equal(new Set([react?.dedupeKey, unreact?.dedupeKey, again?.dedupeKey]).size, 3);
  });

  test('items without what they need, other kinds and other objects are ignored with a note', () => {
    const { items, ignored } = parseMetaMessaging(
      envelope('page', { ...base, message: { text: 'no mid' } }, { ...base, referral: { ref: 'x' } }, { recipient: { id: '900' }, message: { mid: 'm' } }, { sender: { id: 'p9' }, recipient: { id: 'p1' }, timestamp: 1, message: { mid: 'e', is_echo: true } }),
    );
    assert.deepEqual(items, []);
    assert.deepEqual(ignored, ['page.messaging message without mid', 'page.messaging referral', 'page.messaging item without sender, recipient or timestamp', 'page.messaging echo from another sender']);
    assert.deepEqual(parseMetaMessaging(envelope('whatsapp_business_account', { ...base, message: { mid: 'm' } })).ignored, ['whatsapp_business_account.messaging without its account']);
    assert.deepEqual(parseMetaMessaging('not json'), { items: [], ignored: [] });
  });
});

describe('the messaging error table', () => {
  const graph = (code: number, subcode?: number, kind: PlatformError['kind'] = 'permission') =>
    messagingError(new PlatformError(kind, 'refused', { platform: 'facebook', status: 400, code, ...(subcode ? { subcode } : {}) }));
  test('a closed window is 409 outside_messaging_window on both platforms', () => {
    for (const [code, subcode] of [[10, 2018278], [10, 2534022], [10, 2018065]] as const) {
      const error = graph(code, subcode);
      assert.equal(error.kind, 'outside_window');
      assert.equal(toApiError(error).code, 'outside_messaging_window');
      assert.equal(toApiError(error).status, 409);
    }
  });
  test('a person who cannot be reached is 409 recipient_unavailable', () => {
    for (const [code, subcode] of [[551, undefined], [551, 1545041], [200, 1545041], [10, 2018108], [100, 2018001], [100, 2534014], [2018300, undefined]] as const) {
      assert.equal(toApiError(graph(code, subcode)).code, 'recipient_unavailable', `${code}/${subcode}`);
    }
  });
  test('other errors keep the Graph meaning: permission, token, rate limit', () => {
    assert.equal(toApiError(graph(10)).code, 'missing_permission');
    assert.equal(toApiError(graph(200, 2534041)).code, 'missing_permission');
    assert.equal(toApiError(graph(190, 463, 'auth')).code, 'reconnect_required');
    assert.equal(toApiError(graph(613, 2534040, 'rate_limited')).code, 'rate_limited');
  });
});
