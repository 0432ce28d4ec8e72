// Endpoints changed in place, on both stores, against real receivers on loopback: PATCH moves an
// endpoint to another URL, other events or off and on again, keeping its secret; a secret
// rotation shows the new secret once and, for 24 hours of the app's clock, signs each delivery
// with both secrets (X-SocialAPI-Signature with the new one, -Previous with the old), each
// checked here with node:crypto and with the SDK's verifier; afterwards only the new one.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { tenantScope } from '../src/db/tenant.ts';
import { emitEvent } from '../src/modules/events/emit.ts';
import { createWebhook } from '../src/modules/webhooks/service.ts';
import { verifyWebhook } from '../src/sdk/verify-webhook.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver, type Received } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  previousSecretExpiresAt: string | null;
  secret?: string;
}
interface Delivery {
  id: string;
  status: string;
  attempts: number;
  lastError: string | null;
  attemptLog: unknown[];
}

const json = { 'content-type': 'application/json' };
const DAY = 24 * 3_600_000;
const hmac = (secret: string, got: Received) => createHmac('sha256', secret).update(`${String(got.headers['x-socialapi-timestamp'])}.${got.body}`).digest('hex');

for (const dialect of DIALECTS) {
  describe(`webhook endpoints changed in place [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let clock: ManualClock;
    let key: string;
    let organizationId: string;
    let receiver: Receiver;

    before(async () => {
      clock = new ManualClock();
      t = await startApp(dialect, { clock, worker: true, env: { WEBHOOK_TIMEOUT_MS: '500', JOB_POLL_INTERVAL_MS: '50' } });
      ({ key, organizationId } = await t.tenant({ rateLimit: 1_000_000 }));
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });
    beforeEach(async () => {
      await receiver?.stop();
      receiver = await new Receiver().start();
    });

    const call = (path: string, method: string, body?: unknown, withKey = key) =>
      t.request(`/api/v1${path}`, { key: withKey, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
    const endpoint = async (events: string[]) => {
      const res = await call('/webhooks', 'POST', { url: receiver.url, events });
      assert.equal(res.status, 201);
      return ((await res.json()) as { webhook: Webhook & { secret: string } }).webhook;
    };
    const patch = (id: string, body: unknown, withKey = key) => call(`/webhooks/${id}`, 'PATCH', body, withKey);
    const deliveries = async (webhookId: string) => ((await (await call(`/webhooks/${webhookId}/deliveries`, 'GET')).json()) as { deliveries: Delivery[] }).deliveries;
    const emit = (type: 'post.published' | 'post.failed', postId: string) =>
      t.runtime.deps.store.db.transaction().execute((trx) => emitEvent({ db: trx, store: t.runtime.deps.store, now: clock.now() }, organizationId, type, { postId, status: type === 'post.failed' ? 'failed' : 'published' }));
    const endpointRow = (id: string) => t.runtime.deps.store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;

    test('PATCH changes url, events and enabled in place and keeps the secret', async () => {
      const hook = await endpoint(['post.published']);
      const before = await endpointRow(hook.id);
      const moved = await new Receiver().start();
      try {
        const res = await patch(hook.id, { url: moved.url, events: ['post.failed', 'post.failed'] });
        assert.equal(res.status, 200);
        const { webhook } = (await res.json()) as { webhook: Webhook };
        assert.deepEqual([webhook.id, webhook.url, webhook.events, webhook.enabled, webhook.secret], [hook.id, moved.url, ['post.failed'], true, undefined]);
        const stored = await endpointRow(hook.id);
        assert.equal(stored.secret_enc, before.secret_enc, 'the secret is unchanged');
        assert.deepEqual(JSON.parse(stored.events), ['post.failed']);

        // The old event type no longer subscribes; the new one goes to the new URL, signed with
        // the secret given at registration.
        await emit('post.published', 'post_patch_1');
        await emit('post.failed', 'post_patch_2');
        const [got] = await moved.waitFor(1);
        assert.ok(got);
        assert.equal((JSON.parse(got.body) as { data: { postId: string } }).data.postId, 'post_patch_2');
        assert.equal(got.headers['x-socialapi-signature'], hmac(hook.secret, got));
        assert.equal(got.headers['x-socialapi-signature-previous'], undefined);
        assert.equal(receiver.received.length, 0);
        assert.equal((await deliveries(hook.id)).length, 1);

        // Off: an event's delivery fails without an attempt; on again, a redelivery sends it.
        const off = await patch(hook.id, { enabled: false });
        assert.equal(((await off.json()) as { webhook: Webhook }).webhook.enabled, false);
        await emit('post.failed', 'post_patch_3');
        const failed = await waitFor(async () => (await deliveries(hook.id)).find((d) => d.status === 'failed') ?? null, 5000, 'the delivery to a disabled endpoint to fail');
        assert.deepEqual([failed.attempts, failed.attemptLog.length, failed.lastError], [0, 0, 'endpoint disabled: not sent']);
        assert.equal(moved.received.length, 1);
        const on = await patch(hook.id, { enabled: true });
        assert.equal(((await on.json()) as { webhook: Webhook }).webhook.enabled, true);
        assert.equal((await call(`/webhooks/deliveries/${failed.id}/redeliver`, 'POST')).status, 202);
        const [, resent] = await moved.waitFor(2);
        assert.equal((JSON.parse(resent?.body ?? '{}') as { data: { postId: string } }).data.postId, 'post_patch_3');
        assert.equal((await endpointRow(hook.id)).secret_enc, before.secret_enc);
      } finally {
        await moved.stop();
      }
    });

    test('PATCH refuses a bad url or event naming the field, an empty change, and a foreign or unknown id', async () => {
      const hook = await endpoint(['post.published']);
      for (const [body, message] of [
        [{ url: 'not a url' }, /^url: /],
        [{ url: '' }, /^url: /],
        [{ events: ['webhook.test'] }, /^events\[0\]: /],
        [{ events: [] }, /^events: /],
        [{ enabled: 'yes' }, /^enabled: /],
        [{}, /^body: give url, events or enabled$/],
      ] as const) {
        const res = await patch(hook.id, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(await errorOf(res), message, JSON.stringify(body));
      }
      const other = await t.tenant({ rateLimit: 1_000_000 });
      const foreign = await patch(hook.id, { enabled: false }, other.key);
      assert.equal(foreign.status, 404);
      assert.equal(await errorOf(foreign), 'Webhook not found');
      assert.equal((await patch('webhook_unknown', { enabled: false })).status, 404);
      assert.equal((await call(`/webhooks/${hook.id}/secret`, 'POST', undefined, other.key)).status, 404);
      const unchanged = await endpointRow(hook.id);
      assert.deepEqual([unchanged.url, unchanged.events, unchanged.enabled, unchanged.previous_secret_enc], [receiver.url, '["post.published"]', 1, null]);
    });

    test('PATCH checks a new url as registration does (https and public only, without ALLOW_PRIVATE_URLS)', async () => {
      const strict = await startApp(dialect, { env: { ALLOW_PRIVATE_URLS: '0' } });
      try {
        const tenant = await strict.tenant();
        const { row } = await createWebhook(tenantScope(strict.runtime.deps.store.db, tenant.organizationId), strict.runtime.deps, { url: 'https://hooks.example.com/socialapi' });
        for (const [url, message] of [
          ['http://hooks.example.com/socialapi', 'url: only https URLs are allowed'],
          ['https://127.0.0.1/hook', /^url: /],
          ['https://169.254.169.254/latest', /^url: /],
          ['https://[::1]/hook', /^url: /],
        ] as const) {
          const res = await strict.request(`/api/v1/webhooks/${row.id}`, { key: tenant.key, method: 'PATCH', headers: json, body: JSON.stringify({ url }) });
          assert.equal(res.status, 400, url);
          const text = await errorOf(res);
          if (typeof message === 'string') assert.equal(text, message);
          else assert.match(text, message, url);
        }
        const kept = await strict.runtime.deps.store.db.selectFrom('webhook_endpoints').select('url').where('id', '=', row.id).executeTakeFirstOrThrow();
        assert.equal(kept.url, 'https://hooks.example.com/socialapi');
      } finally {
        await strict.close();
      }
    });

    test('a rotation shows the new secret once; for 24 hours deliveries carry both signatures, then only the new one', async () => {
      const hook = await endpoint(['post.published']);
      const old = hook.secret;
      const rotatedAt = clock.now();
      const res = await call(`/webhooks/${hook.id}/secret`, 'POST');
      assert.equal(res.status, 200);
      const { webhook } = (await res.json()) as { webhook: Webhook & { secret: string } };
      assert.match(webhook.secret, /^whsec_/);
      assert.notEqual(webhook.secret, old);
      assert.equal(webhook.previousSecretExpiresAt, new Date(rotatedAt + DAY).toISOString());
      const fresh = webhook.secret;

      // Shown once; both secrets sealed at rest.
      const listed = await (await call('/webhooks', 'GET')).text();
      assert.ok(!listed.includes(fresh) && !listed.includes(old), listed);
      assert.equal((JSON.parse(listed) as { webhooks: Webhook[] }).webhooks.find((w) => w.id === hook.id)?.previousSecretExpiresAt, webhook.previousSecretExpiresAt);
      const row = await endpointRow(hook.id);
      for (const sealed of [row.secret_enc, row.previous_secret_enc ?? '']) assert.ok(sealed && !sealed.includes('whsec_'), 'sealed');
      assert.equal(t.runtime.deps.sealer.open(row.secret_enc), fresh);
      assert.equal(t.runtime.deps.sealer.open(row.previous_secret_enc ?? ''), old);

      // During the grace: the contract's header with the new secret, -Previous with the old one.
      clock.advance(DAY - 60_000);
      await emit('post.published', 'post_rotate_1');
      const [during] = await receiver.waitFor(1);
      assert.ok(during);
      assert.equal(during.headers['x-socialapi-signature'], hmac(fresh, during));
      assert.equal(during.headers['x-socialapi-signature-previous'], hmac(old, during));
      const headers = { body: during.body, timestamp: String(during.headers['x-socialapi-timestamp']), signature: String(during.headers['x-socialapi-signature']), previousSignature: String(during.headers['x-socialapi-signature-previous']), now: clock.now() };
      assert.deepEqual(verifyWebhook({ secret: old, ...headers }), { ok: true }, 'a receiver still on the old secret');
      assert.deepEqual(verifyWebhook({ secret: fresh, ...headers }), { ok: true }, 'a receiver on the new secret');

      // After 24 hours: only the new secret signs.
      clock.advance(60_000);
      await emit('post.published', 'post_rotate_2');
      const [, after] = await receiver.waitFor(2);
      assert.ok(after);
      assert.equal(after.headers['x-socialapi-signature'], hmac(fresh, after));
      assert.equal(after.headers['x-socialapi-signature-previous'], undefined);
      const late = { body: after.body, timestamp: String(after.headers['x-socialapi-timestamp']), signature: String(after.headers['x-socialapi-signature']), now: clock.now() };
      assert.deepEqual(verifyWebhook({ secret: old, ...late }), { ok: false, reason: 'bad_signature' });
      assert.deepEqual(verifyWebhook({ secret: fresh, ...late }), { ok: true });
      const relisted = (await (await call('/webhooks', 'GET')).json()) as { webhooks: Webhook[] };
      assert.equal(relisted.webhooks.find((w) => w.id === hook.id)?.previousSecretExpiresAt, null);
    });

    test('rotating again within the grace keeps the secret it replaces as the previous one', async () => {
      const hook = await endpoint(['post.published']);
      const first = ((await (await call(`/webhooks/${hook.id}/secret`, 'POST')).json()) as { webhook: { secret: string } }).webhook.secret;
      clock.advance(3_600_000);
      const second = ((await (await call(`/webhooks/${hook.id}/secret`, 'POST')).json()) as { webhook: { secret: string; previousSecretExpiresAt: string } }).webhook;
      assert.equal(second.previousSecretExpiresAt, new Date(clock.now() + DAY).toISOString());
      await emit('post.published', 'post_rotate_3');
      const [got] = await receiver.waitFor(1);
      assert.ok(got);
      assert.equal(got.headers['x-socialapi-signature'], hmac(second.secret, got));
      assert.equal(got.headers['x-socialapi-signature-previous'], hmac(first, got));
    });
  });
}
