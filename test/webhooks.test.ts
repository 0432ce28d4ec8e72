// Outgoing webhooks, on both stores, against a real receiver on loopback: registration rules,
// signed deliveries checked with node:crypto independently of the service's signing code,
// retries on the DESIGN schedule (time moved by hand), redirects and timeouts, redelivery with
// the same idempotency key, a receiver down for an hour, and tenant isolation.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { emitEvent } from '../src/modules/events/emit.ts';

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  idempotencyKey: string;
  nextAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  attemptLog: Array<{ seq: number; responseStatus: number | null; error: string | null }>;
}

const json = { 'content-type': 'application/json' };

for (const dialect of DIALECTS) {
  describe(`webhooks [${dialect}]`, { skip: skipReason(dialect) }, () => {
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

    const register = async (body: Record<string, unknown>, withKey = key) =>
      t.request('/api/v1/webhooks', { key: withKey, method: 'POST', headers: json, body: JSON.stringify(body) });
    const endpoint = async (events?: string[]) => {
      const res = await register({ url: receiver.url, ...(events ? { events } : {}) });
      assert.equal(res.status, 201);
      return ((await res.json()) as { webhook: { id: string; secret: string; events: string[] } }).webhook;
    };
    const deliveries = async (webhookId: string, query = '') =>
      ((await (await t.request(`/api/v1/webhooks/${webhookId}/deliveries${query}`, { key })).json()) as { deliveries: Delivery[] }).deliveries;
    /** Moves time to the delivery's next attempt and lets the worker run it. */
    const runNextAttempt = async (webhookId: string, expectReceived: number) => {
      const [pending] = await deliveries(webhookId);
      assert.ok(pending?.nextAttemptAt, 'a next attempt is scheduled');
      clock.advance(Date.parse(pending.nextAttemptAt) - clock.now() + 1);
      t.worker?.wake();
      await receiver.waitFor(expectReceived);
    };
    const settled = (webhookId: string, status: string) =>
      waitFor(async () => (await deliveries(webhookId))[0]?.status === status, 5000);

    test('registration: https only, subscribable events only, secret shown once', async () => {
      // ALLOW_PRIVATE_URLS is on in sandbox mode (these tests' default), which admits http.
      const strict = await startApp(dialect, { env: { ALLOW_PRIVATE_URLS: '0' } });
      try {
        const tenant = await strict.tenant();
        const http = await strict.request('/api/v1/webhooks', { key: tenant.key, method: 'POST', headers: json, body: JSON.stringify({ url: 'http://example.com/hook' }) });
        assert.equal(http.status, 400);
        assert.equal(((await http.json()) as { error: { message: string } }).error.message, 'url: only https URLs are allowed');
        for (const url of ['https://127.0.0.1/hook', 'https://localhost/hook', 'https://[::1]/hook', 'https://169.254.169.254/latest', 'https://10.1.2.3/x']) {
          const refused = await strict.request('/api/v1/webhooks', { key: tenant.key, method: 'POST', headers: json, body: JSON.stringify({ url }) });
          assert.equal(refused.status, 400, url);
          assert.match(((await refused.json()) as { error: { message: string } }).error.message, /^url: /);
        }
      } finally {
        await strict.close();
      }
      for (const [body, field] of [
        [{ url: receiver.url, events: ['webhook.test'] }, 'events[0]'],
        [{ url: receiver.url, events: ['post.published', 'post.exploded'] }, 'events[1]'],
        [{ url: 'not a url' }, 'url'],
        [{}, 'url'],
      ] as const) {
        const res = await register(body);
        assert.equal(res.status, 400);
        assert.match(((await res.json()) as { error: { message: string } }).error.message, new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: `));
      }
      const created = await endpoint();
      assert.deepEqual(created.events, ['post.published', 'post.failed', 'post.pending_approval']);
      assert.match(created.secret, /^whsec_/);
      const listed = (await (await t.request('/api/v1/webhooks', { key })).json()) as { webhooks: Array<Record<string, unknown>> };
      const mine = listed.webhooks.find((w) => w.id === created.id);
      assert.ok(mine);
      assert.equal(mine.secret, undefined);
      assert.ok(!JSON.stringify(listed).includes(created.secret));
    });

    test('a test delivery is signed as the contract says', async () => {
      const hook = await endpoint(['post.published']);
      const res = await t.request(`/api/v1/webhooks/${hook.id}/test`, { key, method: 'POST' });
      assert.equal(res.status, 202);
      const { eventId, deliveryId } = (await res.json()) as { eventId: string; deliveryId: string };
      const [got] = await receiver.waitFor(1);
      assert.ok(got);
      assert.equal(got.headers['content-type'], 'application/json');
      assert.match(got.headers['user-agent'] ?? '', /^SocialAPI-Webhooks\//);
      assert.equal(got.headers['x-idempotency-key'], deliveryId);
      const timestamp = String(got.headers['x-socialapi-timestamp']);
      assert.ok(Math.abs(Number(timestamp) - clock.now() / 1000) <= 1);
      const expected = createHmac('sha256', hook.secret).update(`${timestamp}.${got.body}`).digest('hex');
      assert.equal(got.headers['x-socialapi-signature'], expected);
      const body = JSON.parse(got.body) as { id: string; event: string; createdAt: string; data: unknown };
      assert.deepEqual(Object.keys(body), ['id', 'event', 'createdAt', 'data']);
      assert.equal(body.id, eventId);
      assert.equal(body.event, 'webhook.test');
      assert.deepEqual(body.data, { webhookId: hook.id, message: 'This is a test delivery from socialapi.' });
      await settled(hook.id, 'delivered');
      const [delivery] = await deliveries(hook.id);
      assert.equal(delivery?.attempts, 1);
      assert.equal(delivery?.lastResponseStatus, 200);
      assert.equal(delivery?.idempotencyKey, deliveryId);
    });

    test('failures are retried on the schedule with the same key and a fresh signature', async () => {
      const hook = await endpoint(['post.published']);
      receiver.script.push({ status: 500 }, { status: 503, headers: { 'retry-after': '1' } });
      await t.runtime.deps.store.db.transaction().execute((trx) =>
        emitEvent({ db: trx, store: t.runtime.deps.store, now: clock.now() }, organizationId, 'post.published', { postId: 'post_1', status: 'published' }),
      );
      await receiver.waitFor(1);
      await settled(hook.id, 'pending');
      const [first] = await deliveries(hook.id);
      const delay1 = Date.parse(first?.nextAttemptAt ?? '') - clock.now();
      assert.ok(delay1 >= 4000 && delay1 <= 6000, `first retry after about 5 s, was ${delay1}`);
      await runNextAttempt(hook.id, 2);
      await settled(hook.id, 'pending');
      const [second] = await deliveries(hook.id);
      const delay2 = Date.parse(second?.nextAttemptAt ?? '') - clock.now();
      assert.ok(delay2 >= 240_000 && delay2 <= 360_000, `second retry after about 5 min, was ${delay2}`);
      await runNextAttempt(hook.id, 3);
      await settled(hook.id, 'delivered');
      const keys = new Set(receiver.received.map((r) => r.headers['x-idempotency-key']));
      assert.equal(keys.size, 1);
      const stamps = new Set(receiver.received.map((r) => r.headers['x-socialapi-timestamp']));
      assert.equal(stamps.size, 3, 'each attempt is signed with its own timestamp');
      const [done] = await deliveries(hook.id);
      assert.deepEqual(done?.attemptLog.map((a) => a.responseStatus), [500, 503, 200]);
      assert.equal(done?.attempts, 3);
    });

    test('after 8 failed attempts the delivery is failed, with the last error kept', async () => {
      const hook = await endpoint(['post.failed']);
      receiver.fallback = { status: 500 };
      await t.runtime.deps.store.db.transaction().execute((trx) =>
        emitEvent({ db: trx, store: t.runtime.deps.store, now: clock.now() }, organizationId, 'post.failed', { postId: 'post_2', status: 'failed' }),
      );
      await receiver.waitFor(1);
      for (let n = 2; n <= 8; n++) {
        await settled(hook.id, 'pending');
        await runNextAttempt(hook.id, n);
      }
      await settled(hook.id, 'failed');
      const [failed] = await deliveries(hook.id, '?status=failed');
      assert.equal(failed?.attempts, 8);
      assert.equal(failed?.lastResponseStatus, 500);
      assert.match(failed?.lastError ?? '', /^HTTP 500/);
      assert.equal(failed?.nextAttemptAt, null);
    });

    test('redirects are not followed and hanging receivers time out', async () => {
      const hook = await endpoint();
      receiver.script.push({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }, { hang: true });
      await t.request(`/api/v1/webhooks/${hook.id}/test`, { key, method: 'POST' });
      await receiver.waitFor(1);
      await settled(hook.id, 'pending');
      const [redirected] = await deliveries(hook.id);
      assert.equal(redirected?.lastResponseStatus, 302);
      assert.match(redirected?.lastError ?? '', /redirects are not followed/);
      await runNextAttempt(hook.id, 2);
      await settled(hook.id, 'pending');
      const [timedOut] = await deliveries(hook.id);
      assert.match(timedOut?.lastError ?? '', /timed out after 500 ms/);
      assert.ok(Date.parse(timedOut?.nextAttemptAt ?? '') - clock.now() >= 60_000, 'a timeout waits at least a minute');
    });

    test('redelivery keeps the idempotency key and starts a fresh cycle', async () => {
      const hook = await endpoint();
      await t.request(`/api/v1/webhooks/${hook.id}/test`, { key, method: 'POST' });
      await receiver.waitFor(1);
      await settled(hook.id, 'delivered');
      const [delivered] = await deliveries(hook.id);
      const res = await t.request(`/api/v1/webhooks/deliveries/${delivered?.id ?? ''}/redeliver`, { key, method: 'POST' });
      assert.equal(res.status, 202);
      const [first, second] = await receiver.waitFor(2);
      assert.equal(second?.headers['x-idempotency-key'], first?.headers['x-idempotency-key']);
      assert.equal(second?.body, first?.body);
      await settled(hook.id, 'delivered');
      const [again] = await deliveries(hook.id);
      assert.equal(again?.attempts, 1);
      assert.deepEqual(again?.attemptLog.map((a) => a.seq), [1, 2]);
    });

    test('redelivering a delivery that waits for its retry sends it at once, and the old retry never comes', async () => {
      const hook = await endpoint();
      receiver.script.push({ status: 500 });
      await t.request(`/api/v1/webhooks/${hook.id}/test`, { key, method: 'POST' });
      await receiver.waitFor(1);
      await settled(hook.id, 'pending');
      const [waiting] = await deliveries(hook.id);
      const retryAt = Date.parse(waiting?.nextAttemptAt ?? '');
      assert.ok(retryAt - clock.now() >= 4000, 'a retry waits about 5 s');
      // The clock stands still: only a redelivery due now can reach the receiver.
      const res = await t.request(`/api/v1/webhooks/deliveries/${waiting?.id ?? ''}/redeliver`, { key, method: 'POST' });
      assert.equal(res.status, 202);
      const { delivery } = (await res.json()) as { delivery: Delivery };
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.attempts, 0);
      assert.equal(delivery.nextAttemptAt, new Date(clock.now()).toISOString(), 'due now, not at the old retry time');
      const [, again] = await receiver.waitFor(2, 3000);
      assert.equal(again?.headers['x-idempotency-key'], waiting?.id);
      await settled(hook.id, 'delivered');
      const [done] = await deliveries(hook.id);
      assert.deepEqual([done?.attempts, done?.nextAttemptAt, done?.attemptLog.map((a) => a.responseStatus)], [1, null, [500, 200]]);
      // The retry it replaced is gone: past its time, nothing more arrives.
      clock.advance(retryAt - clock.now() + 60_000);
      t.worker?.wake();
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.received.length, 2);
      const queued = await t.runtime.deps.store.db.selectFrom('jobs').select('payload').where('kind', '=', 'webhook.send').execute();
      assert.ok(!queued.some((j) => j.payload.includes(waiting?.id ?? '-')), JSON.stringify(queued));
    });

    test('a receiver down for an hour gets every event once it is back', async () => {
      const hook = await endpoint(['post.published']);
      const port = receiver.port;
      await receiver.stop();
      for (let i = 0; i < 3; i++) {
        await t.runtime.deps.store.db.transaction().execute((trx) =>
          emitEvent({ db: trx, store: t.runtime.deps.store, now: clock.now() }, organizationId, 'post.published', { postId: `post_down_${i}`, status: 'published' }),
        );
      }
      const allPending = async () => (await deliveries(hook.id)).every((d) => d.status === 'pending' && d.attempts >= 1);
      await waitFor(allPending, 5000);
      // Through the 5 s, 5 min and 30 min retries while it is down: about 35 minutes.
      for (let round = 0; round < 3; round++) {
        const next = Math.max(...(await deliveries(hook.id)).map((d) => Date.parse(d.nextAttemptAt ?? '0')));
        clock.advance(next - clock.now() + 1);
        t.worker?.wake();
        await waitFor(async () => (await deliveries(hook.id)).every((d) => d.status === 'pending' && d.attempts === round + 2), 5000);
      }
      receiver = await new Receiver().start(port);
      clock.advance(3 * 3_600_000);
      t.worker?.wake();
      await receiver.waitFor(3);
      await waitFor(async () => (await deliveries(hook.id)).every((d) => d.status === 'delivered'), 5000);
      const posts = receiver.received.map((r) => (JSON.parse(r.body) as { data: { postId: string } }).data.postId).sort();
      assert.deepEqual(posts, ['post_down_0', 'post_down_1', 'post_down_2']);
    });

    test('a hanging endpoint does not delay the others', async () => {
      // Real time here: waiting for a free slot is measured in wall-clock milliseconds.
      const live = await startApp(dialect, { worker: true, env: { WEBHOOK_TIMEOUT_MS: '2000', JOB_POLL_INTERVAL_MS: '50' } });
      const slow = await new Receiver().start();
      const fast = await new Receiver().start();
      slow.fallback = { hang: true };
      try {
        const tenant = await live.tenant({ rateLimit: 1_000_000 });
        for (const url of [slow.url, fast.url]) {
          const res = await live.request('/api/v1/webhooks', { key: tenant.key, method: 'POST', headers: json, body: JSON.stringify({ url, events: ['post.published'] }) });
          assert.equal(res.status, 201);
        }
        const started = Date.now();
        await live.runtime.deps.store.db.transaction().execute(async (trx) => {
          for (let i = 0; i < 20; i++) {
            await emitEvent({ db: trx, store: live.runtime.deps.store, now: Date.now() }, tenant.organizationId, 'post.published', { postId: `post_fast_${i}`, status: 'published' });
          }
        });
        await fast.waitFor(20, 5000);
        const took = Date.now() - started;
        assert.ok(took < 1500, `the fast endpoint got its 20 deliveries in ${took} ms, while the slow one hangs for 2 s`);
        assert.ok(slow.received.length <= 8, `the hanging endpoint held at most 8 slots (${slow.received.length} requests)`);
      } finally {
        await slow.stop();
        await fast.stop();
        await live.close();
      }
    });

    test('an event in a rolled-back transaction is never delivered', async () => {
      const hook = await endpoint(['post.published']);
      await assert.rejects(
        t.runtime.deps.store.db.transaction().execute(async (trx) => {
          await emitEvent({ db: trx, store: t.runtime.deps.store, now: clock.now() }, organizationId, 'post.published', { postId: 'post_x', status: 'published' });
          throw new Error('the change failed');
        }),
      );
      assert.deepEqual(await deliveries(hook.id), []);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(receiver.received.length, 0);
    });

    test("another organization's endpoints and deliveries are 404", async () => {
      const hook = await endpoint();
      await t.request(`/api/v1/webhooks/${hook.id}/test`, { key, method: 'POST' });
      await settled(hook.id, 'delivered');
      const [delivery] = await deliveries(hook.id);
      const other = await t.tenant({ rateLimit: 1_000_000 });
      assert.equal((await t.request(`/api/v1/webhooks/${hook.id}/deliveries`, { key: other.key })).status, 404);
      assert.equal((await t.request(`/api/v1/webhooks/${hook.id}/test`, { key: other.key, method: 'POST' })).status, 404);
      assert.equal((await t.request(`/api/v1/webhooks/deliveries/${delivery?.id ?? ''}/redeliver`, { key: other.key, method: 'POST' })).status, 404);
      assert.equal((await t.request(`/api/v1/webhooks?id=${hook.id}`, { key: other.key, method: 'DELETE' })).status, 404);
      const theirs = (await (await t.request('/api/v1/webhooks', { key: other.key })).json()) as { webhooks: unknown[] };
      assert.deepEqual(theirs.webhooks, []);
      // Still there for its owner; then deleted, with an id required.
      const missingId = await t.request('/api/v1/webhooks', { key, method: 'DELETE' });
      assert.equal(missingId.status, 400);
      assert.equal(((await missingId.json()) as { error: { message: string } }).error.message, 'query.id: required');
      const deleted = await t.request(`/api/v1/webhooks?id=${hook.id}`, { key, method: 'DELETE' });
      assert.deepEqual(await deleted.json(), { deleted: true });
      assert.equal((await t.request(`/api/v1/webhooks/${hook.id}/deliveries`, { key })).status, 404);
    });
  });
}
