// Threads replies as inbox events, end to end on both stores: the Threads app's webhooks are set
// in the sandbox's stand-in for the App Dashboard (there is no subscription API, so the service
// answers 400 not_supported for a threads account); a sandbox person replies to a Threads post
// published through the API, the sandbox sends Threads' own signed notification to the service's
// Meta callback, and comment.received reaches a real receiver, signed, once even when Meta
// delivers the same reply again. A reply to a reply carries its parent; the account's own reply
// emits nothing; a post that @mentions the account becomes mention.received.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/lib/ids.ts';
import { parseMetaEnvelope } from '../src/modules/platform-webhooks/meta-changes.ts';
import { envelopeKinds } from '../src/modules/platform-webhooks/process-job.ts';
import { SANDBOX_VERIFY_TOKEN } from '../src/platforms/context.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver, type Received } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { createPost, json, settled, startPostsApp, type PostsApp } from './posts-support.ts';

const META_PATH = '/api/v1/platform-webhooks/meta';
const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_replies', 'threads_manage_mentions'];
const threadsSign = (body: string) => `sha256=${createHmac('sha256', sandboxApp('threads').clientSecret).update(body).digest('hex')}`;

interface Delivered {
  id: string;
  event: string;
  data: { eventId: string; comment: { id: string } } & Record<string, unknown>;
}

/** A threads account whose person installed the service's Threads app (its token is that app's). */
async function addThreadsAccount(t: PostsApp, organizationId: string): Promise<{ id: string; userId: string; username: string }> {
  const user = t.sandbox.addThreadsUser();
  const token = `threads-token-${newId('account').slice(4)}`;
  t.sandbox.issueToken({ value: token, platform: 'threads', type: 'user', clientId: sandboxApp('threads').clientId, subjectId: user.id, userId: user.id, scopes: THREADS_SCOPES, declined: [], pageIds: [], ttlSeconds: 86_400, longLived: true });
  const { sealer, store, clock } = t.runtime.deps;
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id, organization_id: organizationId, platform: 'threads', platform_user_id: user.id, username: user.username, display_name: null, avatar_url: null,
      external_id: 'cust-th', status: 'active', approval_required: 0, access_token_enc: sealer.seal(token), refresh_token_enc: null, token_expires_at: null,
      scopes: THREADS_SCOPES.join(' '), metadata: '{}', connected_at: now, updated_at: now,
    })
    .execute();
  return { id, userId: user.id, username: user.username };
}

/** A Threads notification as the webhooks page shows it. */
const notification = (field: string, value: Record<string, unknown>, targetId = '700') =>
  JSON.stringify({ app_id: '123', topic: field === 'replies' ? 'moderate' : 'interaction', target_id: targetId, time: 1723226877, subscription_id: '234', has_uid_field: false, values: { value, field } });
const replyValue = (over: Record<string, unknown> = {}) => ({
  id: 'r1', username: 'dana', text: 'Reply', media_type: 'TEXT_POST', permalink: 'https://www.threads.net/@dana/post/Pp',
  replied_to: { id: 'root1' }, root_post: { id: 'root1', owner_id: 'u1', username: 'bakery' }, shortcode: 'Pp', timestamp: '2024-08-07T10:33:16+0000', ...over,
});

describe('reading Threads notifications', () => {
  test('a reply to the root post is a comment on it, keyed on the reply id, for the root post owner', () => {
    const parsed = parseMetaEnvelope(notification('replies', replyValue()));
    assert.deepEqual(parsed, {
      object: 'threads',
      items: [{ platform: 'threads', accountPlatformId: 'u1', kind: 'comment', dedupeKey: 'r1', platformPostId: 'root1', comment: { id: 'r1', text: 'Reply', username: 'dana', parentId: null }, fromId: null }],
      ignored: [],
      unhandled: [],
    });
    assert.deepEqual(envelopeKinds(notification('replies', replyValue())), { object: 'threads', kinds: ['threads.replies'] });
  });

  test('a reply to a reply names its parent; the owner\'s own reply is from the owner; no owner_id falls back to target_id', () => {
    const nested = parseMetaEnvelope(notification('replies', replyValue({ id: 'r2', replied_to: { id: 'r1' } }))).items[0];
    assert.deepEqual([nested?.kind, nested?.comment.parentId], ['reply', 'r1']);
    const own = parseMetaEnvelope(notification('replies', replyValue({ id: 'r3', username: 'bakery' }))).items[0];
    assert.equal(own?.fromId, 'u1');
    const noOwner = parseMetaEnvelope(notification('replies', replyValue({ root_post: { id: 'root1', username: 'bakery' } }), '555')).items[0];
    assert.equal(noOwner?.accountPlatformId, '555');
  });

  test('a mention is keyed on the mentioning post, for the mentioned user (target_id)', () => {
    const parsed = parseMetaEnvelope(notification('mentions', { id: 'm1', username: 'pat', text: '@bakery hi', media_type: 'TEXT_POST', media_product_type: 'THREADS' }, 'u1'));
    assert.deepEqual(parsed.items, [{ platform: 'threads', accountPlatformId: 'u1', kind: 'mention', dedupeKey: 'media:m1', platformPostId: 'm1', comment: { id: 'm1', text: '@bakery hi', username: 'pat', parentId: null }, fromId: null }]);
  });

  test('a reply or mention without its ids is ignored; publish and delete are ignored; an unknown field waits for a handler', () => {
    assert.deepEqual(parseMetaEnvelope(notification('replies', { username: 'x' })).ignored, ['threads.replies without its ids']);
    assert.deepEqual(parseMetaEnvelope(JSON.stringify({ app_id: '1', values: { field: 'mentions', value: { id: 'm1' } } })).ignored, ['threads.mentions without its ids']);
    for (const field of ['publish', 'delete']) assert.deepEqual(parseMetaEnvelope(notification(field, { id: 'p1' })), { object: 'threads', items: [], ignored: [`threads.${field}`], unhandled: [] });
    assert.deepEqual(parseMetaEnvelope(notification('likes', { id: 'p1' })).unhandled, ['threads.likes']);
  });
});

for (const dialect of DIALECTS) {
  describe(`inbox events from threads replies [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let receiver: Receiver;
    let secret: string;
    let key: string;
    let th: { id: string; userId: string; username: string };
    let post: { id: string; platformPostId: string };

    before(async () => {
      t = await startPostsApp(dialect);
      t.sandbox.configureApp({ platform: 'threads', clientId: sandboxApp('threads').clientId, clientSecret: sandboxApp('threads').clientSecret });
      receiver = await new Receiver().start();
      const tenant = await t.tenant();
      key = tenant.key;
      th = await addThreadsAccount(t, tenant.organizationId);
      const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events: ['comment.received', 'mention.received'] }) });
      assert.equal(hook.status, 201);
      secret = ((await hook.json()) as { webhook: { secret: string } }).webhook.secret;
      const created = await createPost(t, key, { content: 'Sourdough tips, a thread', publishNow: true, platforms: [{ accountId: th.id, platform: 'threads' }] });
      const done = await settled(t, key, created.body.post.id);
      assert.equal(done.status, 'published', JSON.stringify(done));
      post = { id: done.id, platformPostId: done.targets[0]?.platformPostId ?? '' };
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    const control = async (path: string, body: unknown) => {
      const res = await fetch(`${t.url}/sandbox/_sandbox/${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const reply = async (replyToId: string, text: string, username: string) => {
      const res = await control('threads/replies', { replyToId, text, from: { username } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return String(res.body.id);
    };
    const delivered = (): Delivered[] =>
      receiver.received.map((r: Received) => {
        const timestamp = String(r.headers['x-socialapi-timestamp']);
        assert.equal(r.headers['x-socialapi-signature'], createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex'));
        return JSON.parse(r.body) as Delivered;
      });
    const deliveryOf = (commentId: string) => waitFor(() => delivered().find((d) => d.data.comment.id === commentId), 8000, `the event of ${commentId}`);
    const settledInbound = () => waitFor(async () => ((await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select('id').where('status', '=', 'pending').execute()).length === 0 ? true : null), 8000, 'the process jobs');
    const storedWith = async (text: string) => (await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select(['status', 'body', 'object']).execute()).filter((r) => r.body.includes(text));
    const inboxRows = async (dedupeKey: string) => (await t.runtime.deps.store.db.selectFrom('inbox_events').selectAll().execute()).filter((r) => r.dedupe_key === dedupeKey);

    test('a threads account cannot be subscribed by API: 400 not_supported naming the dashboard, no platform call', async () => {
      const seq = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const res = await t.request(`/api/v1/accounts/${th.id}/webhook-subscription`, { key, method: 'POST' });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'not_supported');
      assert.match(body.error.message, /App Dashboard/);
      assert.ok(body.error.message.includes(`${t.url}${META_PATH}`), body.error.message);
      assert.deepEqual(t.sandbox.journal.list({ after: seq }).filter((e) => !e.path.startsWith('/_sandbox')), []);
    });

    test('the dashboard stand-in verifies the callback; a wrong verify token or field is refused', async () => {
      const callbackUrl = `${t.url}${META_PATH}`;
      const wrong = await control('threads/webhooks', { appId: sandboxApp('threads').clientId, callbackUrl, verifyToken: 'not-ours', fields: ['replies'] });
      assert.equal(wrong.status, 400);
      assert.match(JSON.stringify(wrong.body), /verification failed/);
      assert.equal((await control('threads/webhooks', { appId: sandboxApp('threads').clientId, callbackUrl, verifyToken: SANDBOX_VERIFY_TOKEN, fields: ['likes'] })).status, 400);
      const ok = await control('threads/webhooks', { appId: sandboxApp('threads').clientId, callbackUrl, verifyToken: SANDBOX_VERIFY_TOKEN, fields: ['replies', 'mentions'] });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual(ok.body, { object: 'threads', fields: ['replies', 'mentions'] });
      // The Graph subscriptions edge has no threads object: the dashboard is the only way.
      const appToken = `${sandboxApp('threads').clientId}|${sandboxApp('threads').clientSecret}`;
      const viaGraph = await fetch(`${t.url}/sandbox/graph.facebook.com/v23.0/${sandboxApp('threads').clientId}/subscriptions`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ object: 'threads', callback_url: callbackUrl, verify_token: SANDBOX_VERIFY_TOKEN, fields: 'replies', access_token: appToken }),
      });
      assert.equal(viaGraph.status, 400);
      assert.match(await viaGraph.text(), /Param object must be one of/);
    });

    test('a person replies to the published post: comment.received, signed, with the contract data; a redelivery emits once', async () => {
      const id = await reply(post.platformPostId, 'Which flour do you use?', 'dana.threads');
      const got = await deliveryOf(id);
      assert.equal(got.event, 'comment.received');
      assert.equal(got.id, got.data.eventId);
      assert.deepEqual(got.data, {
        eventId: got.id,
        platform: 'threads',
        accountId: th.id,
        externalId: 'cust-th',
        postId: post.id,
        platformPostId: post.platformPostId,
        comment: { id, text: 'Which flour do you use?', username: 'dana.threads', parentId: null },
        receivedAt: got.data.receivedAt,
      });
      // What the sandbox sent: Threads' envelope, signed with the Threads app's secret.
      const sent = t.sandbox.webhooks.deliveries.find((d) => d.body.includes(`"id":"${id}"`));
      assert.ok(sent);
      assert.equal(sent.status, 200);
      const notification = JSON.parse(sent.body) as { app_id: string; topic: string; values: { field: string; value: { root_post: { owner_id: string } } } };
      assert.deepEqual([notification.app_id, notification.topic, notification.values.field, notification.values.value.root_post.owner_id], [sandboxApp('threads').clientId, 'moderate', 'replies', th.userId]);
      await settledInbound();
      assert.deepEqual((await storedWith(id)).map((r) => [r.status, r.object]), [['processed', 'threads']]);

      // Meta delivers it again, byte for byte and with another `time`: stored twice at most, emitted once.
      const again = sent.body.replace(/"time":\d+/, '"time":1');
      const results = await Promise.all([sent.body, sent.body, again].map((body) => fetch(`${t.url}${META_PATH}`, { method: 'POST', headers: { ...json, 'x-hub-signature-256': threadsSign(body) }, body })));
      assert.deepEqual(results.map((r) => r.status), [200, 200, 200]);
      await settledInbound();
      assert.deepEqual((await storedWith(id)).map((r) => r.status), ['processed', 'processed']);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(delivered().filter((d) => d.data.comment.id === id).length, 1);
      assert.equal((await inboxRows(id)).length, 1);
      assert.equal((await inboxRows(id))[0]?.kind, 'comment');
    });

    test('a reply to a reply carries its parent (kind reply); the account\'s own reply emits nothing', async () => {
      const first = await reply(post.platformPostId, 'Proof overnight?', 'sam.bakes');
      await deliveryOf(first);
      const nested = await reply(first, 'Yes, in the fridge', 'kim.crumb');
      const got = await deliveryOf(nested);
      assert.deepEqual(got.data.comment, { id: nested, text: 'Yes, in the fridge', username: 'kim.crumb', parentId: first });
      assert.deepEqual([got.data.postId, got.data.platformPostId], [post.id, post.platformPostId]);
      assert.deepEqual((await inboxRows(nested)).map((r) => r.kind), ['reply']);

      // The account answers through the API; Threads notifies the app of that reply too.
      const before = receiver.received.length;
      const own = await t.request(`/api/v1/inbox/comments/${first}/reply`, { key, method: 'POST', headers: json, body: JSON.stringify({ accountId: th.id, text: 'Overnight, yes' }) });
      assert.equal(own.status, 200, await own.clone().text());
      const ownId = ((await own.json()) as { id: string }).id;
      const stored = await waitFor(async () => {
        const rows = await storedWith(`"id":"${ownId}"`);
        return rows.length && rows.every((r) => r.status === 'processed') ? rows : null;
      }, 8000, 'the own reply processed');
      assert.equal(stored.length, 1);
      // A person's reply after it is delivered; the account's own is not.
      const later = await reply(post.platformPostId, 'Thanks!', 'dana.threads');
      await deliveryOf(later);
      assert.equal(receiver.received.length, before + 1);
      assert.ok(!delivered().some((d) => d.data.comment.id === ownId));
      assert.deepEqual(await inboxRows(ownId), []);
    });

    test('a person @mentions the account in a post: mention.received with its text and author, once', async () => {
      const res = await control('threads/mentions', { accountId: th.userId, text: 'Best loaf in town', from: { username: 'pat.eats' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = String(res.body.id);
      const got = await deliveryOf(id);
      assert.equal(got.event, 'mention.received');
      assert.deepEqual(got.data, {
        eventId: got.id,
        platform: 'threads',
        accountId: th.id,
        externalId: 'cust-th',
        postId: null,
        platformPostId: id,
        comment: { id, text: `Best loaf in town @${th.username}`, username: 'pat.eats', parentId: null },
        receivedAt: got.data.receivedAt,
      });
      const sent = t.sandbox.webhooks.deliveries.find((d) => d.body.includes(`"id":"${id}"`));
      assert.ok(sent);
      const notification = JSON.parse(sent.body) as { topic: string; target_id: string; values: { field: string } };
      assert.deepEqual([notification.topic, notification.target_id, notification.values.field], ['interaction', th.userId, 'mentions']);
      // Delivered again: emitted once.
      const again = await fetch(`${t.url}${META_PATH}`, { method: 'POST', headers: { ...json, 'x-hub-signature-256': threadsSign(sent.body) }, body: sent.body });
      assert.equal(again.status, 200);
      await settledInbound();
      assert.equal(delivered().filter((d) => d.data.comment.id === id).length, 1);
      assert.deepEqual((await inboxRows(`media:${id}`)).map((r) => r.kind), ['mention']);
    });

    test('GET /inbox/events lists the threads replies and mentions', async () => {
      const res = await t.request(`/api/v1/inbox/events?accountId=${th.id}`, { key });
      assert.equal(res.status, 200);
      const events = ((await res.json()) as { events: Array<{ kind: string; platform: string }> }).events;
      assert.ok(events.length >= 4);
      assert.ok(events.every((e) => e.platform === 'threads'));
      assert.deepEqual(new Set(events.map((e) => e.kind)), new Set(['comment', 'reply', 'mention']));
    });
  });
}
