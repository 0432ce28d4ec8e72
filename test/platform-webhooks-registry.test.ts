// The inbound handler registry (issue 30, item 3): each envelope kind is one handler's, and a
// body's kinds that no handler lists are the ones that leave its row `unhandled`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INBOUND_HANDLERS } from '../src/modules/platform-webhooks/handlers.ts';
import { unhandledKinds } from '../src/modules/platform-webhooks/inbound-handler.ts';

const envelope = (object: string, fields: string[], messaging = false) =>
  JSON.stringify({ object, entry: [{ id: '900', time: 1, changes: fields.map((field) => ({ field, value: {} })), ...(messaging ? { messaging: [{}] } : {}) }] });

describe('the inbound handler registry', () => {
  test('every kind is listed by one handler only', () => {
    const owners = new Map<string, string[]>();
    for (const handler of INBOUND_HANDLERS) for (const kind of handler.kinds) owners.set(kind, [...(owners.get(kind) ?? []), handler.name]);
    assert.deepEqual([...owners].filter(([, names]) => names.length > 1), []);
    assert.deepEqual(INBOUND_HANDLERS.map((h) => h.name), ['comments', 'messaging', 'whatsapp account', 'whatsapp messages']);
  });

  test('a body\'s kinds no handler lists are unhandled, in the body\'s order; the known ones are not', () => {
    assert.deepEqual(unhandledKinds(envelope('instagram', ['story_insights', 'comments', 'mentions'], true), INBOUND_HANDLERS), ['instagram.story_insights']);
    assert.deepEqual(unhandledKinds(envelope('page', ['feed', 'ratings', 'leadgen']), INBOUND_HANDLERS), ['page.ratings', 'page.leadgen']);
    assert.deepEqual(unhandledKinds(envelope('whatsapp_business_account', ['messages', 'account_update', 'flows']), INBOUND_HANDLERS), ['whatsapp_business_account.flows']);
    assert.deepEqual(unhandledKinds(envelope('user', [], true), INBOUND_HANDLERS), ['user.messaging']);
    const threads = (field: string) => JSON.stringify({ app_id: '1', topic: 't', target_id: '5', time: 1, values: { field, value: {} } });
    assert.deepEqual(unhandledKinds(threads('replies'), INBOUND_HANDLERS), []);
    assert.deepEqual(unhandledKinds(threads('quotes'), INBOUND_HANDLERS), ['threads.quotes']);
    assert.deepEqual(unhandledKinds('not json', INBOUND_HANDLERS), []);
  });
});
