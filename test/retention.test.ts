// store.retention on both stores: after RETENTION_DAYS, failed jobs, delivered or failed webhook
// deliveries (with their attempts), events no delivery references and processed inbound platform
// webhooks are deleted, and idempotency keys after 24 hours; recent rows, pending or running work
// and anything still referenced stay. One sweep a day is queued, however many workers start.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Insertable } from 'kysely';
import { parseConfig } from '../src/config.ts';
import type { Store } from '../src/db/database.ts';
import type { DeliveryStatus, JobStatus, JobsTable, PlatformWebhookStatus } from '../src/db/schema.ts';
import { createLogger } from '../src/http/logging.ts';
import { buildJobRegistry } from '../src/composition.ts';
import { Worker } from '../src/jobs/worker.ts';
import { idAt, newId } from '../src/lib/ids.ts';
import { sweep } from '../src/modules/retention/retention-job.ts';
import { scheduleRetention } from '../src/modules/retention/schedule.ts';
import { BATCH, cutoffs } from '../src/modules/retention/sweep.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { spawnCli } from './harness/cli.ts';
import { ManualClock } from './harness/clock.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { openJobStore } from './fixtures/jobs.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const KIND = 'store.retention';
const dayKey = (runAt: number) => `${KIND}:${new Date(runAt).toISOString().slice(0, 10)}`;

describe('RETENTION_DAYS', () => {
  test('inbox events outlive Meta redeliveries and reddit polling (8 days) whatever the setting', () => {
    const now = Date.UTC(2031, 4, 12);
    assert.equal(cutoffs(now, 1).inbox, now - 8 * DAY);
    assert.equal(cutoffs(now, 30).inbox, now - 30 * DAY);
  });

  test('defaults to 30 and takes an integer from 1 to 3650', () => {
    assert.equal(parseConfig({}).retentionDays, 30);
    assert.equal(parseConfig({ RETENTION_DAYS: '1' }).retentionDays, 1);
    assert.equal(parseConfig({ RETENTION_DAYS: '3650' }).retentionDays, 3650);
    for (const bad of ['0', '3651', '7.5', 'week']) assert.throws(() => parseConfig({ RETENTION_DAYS: bad }), /RETENTION_DAYS must be an integer from 1 to 3650/);
  });
});

for (const dialect of DIALECTS) {
  describe(`store retention [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let store: Store;
    let organizationId: string;
    let key: string;
    // Mid-afternoon UTC, so "the next midnight" is clearly tomorrow's.
    const clock = new ManualClock(Date.UTC(2031, 4, 12, 15, 30));

    before(async () => {
      t = await startApp(dialect, { clock, env: { RETENTION_DAYS: '10' } });
      store = t.runtime.deps.store;
      ({ organizationId, key } = await t.tenant());
    });
    after(() => t.close());

    const runJob = async (signal = new AbortController().signal) => {
      const job = buildJobRegistry(t.runtime.deps).get(KIND);
      assert.ok(job, `${KIND} is registered`);
      await job.definition.run({}, { jobId: 'test', attempt: 1, maxAttempts: 3, signal, db: store.db, log: createLogger('silent'), completeIn: () => Promise.resolve() });
    };
    const retentionJobs = () => store.db.selectFrom('jobs').selectAll().where('kind', '=', KIND).orderBy('run_at').execute();

    test('starting workers queues one sweep for the next midnight; each sweep queues the next day once, and finds nothing harmlessly', async () => {
      const midnight = Date.UTC(2031, 4, 13);
      assert.ok(await scheduleRetention(store.db, store, clock.now()), 'the first worker queues it');
      assert.equal(await scheduleRetention(store.db, store, clock.now()), null, 'a second worker finds it queued');
      let jobs = await retentionJobs();
      assert.equal(jobs.length, 1);
      assert.equal(jobs[0]?.run_at, midnight);
      assert.equal(jobs[0]?.dedupe_key, dayKey(midnight));

      // A worker runs it when due, on an empty store, and queues the following midnight's.
      const worker = new Worker({ store, registry: buildJobRegistry(t.runtime.deps), clock, log: createLogger('silent'), ...t.config.jobs });
      worker.start();
      try {
        clock.advance(midnight + 1000 - clock.now());
        worker.wake();
        jobs = await waitFor(async () => {
          const rows = await retentionJobs();
          return rows.length === 1 && rows[0]?.run_at === midnight + DAY ? rows : null;
        }, 10_000, "the sweep to run and queue the next day's");
      } finally {
        await worker.stop();
      }
      assert.equal(jobs[0]?.dedupe_key, dayKey(midnight + DAY));
      assert.equal(jobs[0]?.status, 'pending');

      // More sweeps the same day (retries, other workers) queue nothing more.
      await runJob();
      await runJob();
      await scheduleRetention(store.db, store, clock.now());
      jobs = await retentionJobs();
      assert.deepEqual(
        jobs.map((j) => [j.run_at, j.dedupe_key, j.status]),
        [[midnight + DAY, dayKey(midnight + DAY), 'pending']],
      );
    });

    test('old settled rows go; recent ones, pending or running work and anything still referenced stay', async () => {
      const { db } = store;
      const now = clock.now();
      const old = now - 11 * DAY;
      const recent = now - 9 * DAY;

      const job = async (status: JobStatus, updatedAt: number) => {
        const id = newId('job', updatedAt);
        // Lane `idle`: no worker claims these; a running one keeps a lease far ahead.
        const row: Insertable<JobsTable> = { id, kind: 'test.kept', payload: '{}', status, run_at: updatedAt, max_attempts: 3, lane: 'idle', locked_until: status === 'running' ? now + 365 * DAY : null, locked_by: status === 'running' ? 'elsewhere' : null, last_error: status === 'failed' ? 'boom' : null, dedupe_key: null, created_at: updatedAt, updated_at: updatedAt };
        await db.insertInto('jobs').values(row).execute();
        return id;
      };
      const failedOld = await job('failed', old);
      const failedRecent = await job('failed', recent);
      const pendingOld = await job('pending', old);
      const runningOld = await job('running', old);

      const webhookId = newId('webhook', old);
      await db.insertInto('webhook_endpoints').values({ id: webhookId, organization_id: organizationId, url: 'https://receiver.example/hook', events: '["webhook.test"]', secret_enc: 'unused', created_at: old }).execute();
      const event = async (createdAt: number) => {
        const id = newId('event', createdAt);
        await db.insertInto('events').values({ id, organization_id: organizationId, type: 'webhook.test', data: '{}', created_at: createdAt }).execute();
        return id;
      };
      const delivery = async (eventId: string, status: DeliveryStatus, updatedAt: number) => {
        const id = newId('delivery', updatedAt);
        await db
          .insertInto('webhook_deliveries')
          .values({ id, organization_id: organizationId, webhook_id: webhookId, event_id: eventId, status, attempts: 1, next_attempt_at: status === 'pending' ? now + HOUR : null, last_response_status: null, last_error: null, delivered_at: status === 'delivered' ? updatedAt : null, created_at: updatedAt, updated_at: updatedAt })
          .execute();
        await db.insertInto('webhook_attempts').values({ delivery_id: id, seq: 1, started_at: updatedAt, duration_ms: 5, response_status: 200, error: null }).execute();
        return id;
      };
      const eDelivered = await event(old);
      const dDelivered = await delivery(eDelivered, 'delivered', old);
      const eFailed = await event(old);
      const dFailed = await delivery(eFailed, 'failed', old);
      const ePending = await event(old);
      const dPending = await delivery(ePending, 'pending', old);
      const eSending = await event(old);
      const dSending = await delivery(eSending, 'sending', old);
      // One delivery of this event settled long ago, the other was redelivered recently.
      const eMixed = await event(old);
      const dMixedOld = await delivery(eMixed, 'delivered', old);
      const dMixedRecent = await delivery(eMixed, 'delivered', recent);
      const eNoDelivery = await event(old);
      const eRecent = await event(recent);
      const dRecent = await delivery(eRecent, 'delivered', recent);

      const inbound = async (status: PlatformWebhookStatus, at: number) => {
        const id = newId('event', at).toLowerCase();
        await db.insertInto('platform_webhook_events').values({ id, family: 'meta', object: 'page', body: '{}', status, note: null, received_at: at, processed_at: status === 'pending' ? null : at }).execute();
        return id;
      };
      const processedOld = await inbound('processed', old);
      const processedRecent = await inbound('processed', recent);
      const unhandledOld = await inbound('unhandled', old);
      const pendingInbound = await inbound('pending', old);

      const account = newId('account', old);
      await db
        .insertInto('accounts')
        .values({ id: account, organization_id: organizationId, platform: 'instagram', platform_user_id: '1784', username: 'kept', display_name: null, avatar_url: null, external_id: null, status: 'active', approval_required: 0, access_token_enc: 'unused', refresh_token_enc: null, token_expires_at: null, scopes: '', metadata: '{}', connected_at: old, updated_at: old })
        .execute();
      const inboxEvent = async (at: number) => {
        // As the inbox makes it when recording: its time is `at` (newId would not go back in time).
        const id = idAt('event', at);
        await db.insertInto('inbox_events').values({ id, organization_id: organizationId, account_id: account, platform: 'instagram', kind: 'comment', dedupe_key: id, data: '{}', received_at: at }).execute();
        return id;
      };
      const inboxOld = await inboxEvent(old);
      const inboxRecent = await inboxEvent(recent);

      const request = async (status: 'running' | 'done', createdAt: number) => {
        const requestKey = `req-${newId('job', createdAt)}`;
        await db.insertInto('post_requests').values({ organization_id: organizationId, key: requestKey, body_hash: 'h', status, post_id: status === 'done' ? newId('post') : null, created_at: createdAt }).execute();
        return requestKey;
      };
      // Keys have their own 24-hour window, whatever RETENTION_DAYS says.
      const doneExpired = await request('done', now - 25 * HOUR);
      const abandonedExpired = await request('running', now - 25 * HOUR);
      const doneFresh = await request('done', now - 23 * HOUR);
      const inProgress = await request('running', now - 60_000);
      // And those of the other platform writes (request_keys), in any state.
      const writeKey = async (status: 'running' | 'done' | 'interrupted', createdAt: number) => {
        const requestKey = `write-${newId('job', createdAt)}`;
        await db
          .insertInto('request_keys')
          .values({ organization_id: organizationId, key: requestKey, operation: 'replyToInboxComment', request_hash: 'h', status, owner: 'o', answer_status: status === 'done' ? 200 : null, answer_body: status === 'done' ? '{}' : null, call_started_at: status === 'running' ? null : createdAt, last_call_at: null, created_at: createdAt, updated_at: createdAt })
          .execute();
        return requestKey;
      };
      const writesExpired = [await writeKey('done', now - 25 * HOUR), await writeKey('interrupted', now - 25 * HOUR), await writeKey('running', now - 25 * HOUR)];
      const writesKept = [await writeKey('done', now - 23 * HOUR), await writeKey('running', now - 60_000)];

      await runJob();

      const ids = async (table: 'jobs' | 'events' | 'webhook_deliveries' | 'platform_webhook_events') => new Set((await db.selectFrom(table).select('id').execute()).map((r) => r.id));
      const jobs = await ids('jobs');
      assert.equal(jobs.has(failedOld), false, 'a job failed 11 days ago is gone');
      for (const id of [failedRecent, pendingOld, runningOld]) assert.ok(jobs.has(id), 'recent failures, pending and running jobs stay');

      // What GET /webhooks/{id}/deliveries shows.
      const res = await t.request(`/api/v1/webhooks/${webhookId}/deliveries?limit=100`, { key });
      assert.equal(res.status, 200);
      const listed = ((await res.json()) as { deliveries: Array<{ id: string; attemptLog: unknown[] }> }).deliveries;
      assert.deepEqual(new Set(listed.map((d) => d.id)), new Set([dPending, dSending, dMixedRecent, dRecent]));
      for (const id of [dDelivered, dFailed, dMixedOld]) assert.ok(!listed.some((d) => d.id === id));
      assert.ok(listed.every((d) => d.attemptLog.length === 1));
      const attempts = await db.selectFrom('webhook_attempts').select('delivery_id').execute();
      assert.deepEqual(new Set(attempts.map((a) => a.delivery_id)), new Set([dPending, dSending, dMixedRecent, dRecent]), 'attempts go with their deliveries');

      const events = await ids('events');
      for (const id of [eDelivered, eFailed, eNoDelivery]) assert.equal(events.has(id), false, 'old events no delivery references are gone');
      for (const id of [ePending, eSending, eMixed, eRecent]) assert.ok(events.has(id), 'events a remaining delivery references, and recent ones, stay');

      const inboundLeft = await ids('platform_webhook_events');
      assert.equal(inboundLeft.has(processedOld), false);
      for (const id of [processedRecent, unhandledOld, pendingInbound]) assert.ok(inboundLeft.has(id), 'recent, unhandled and pending inbound events stay');

      const inbox = new Set((await db.selectFrom('inbox_events').select('id').execute()).map((r) => r.id));
      assert.deepEqual(inbox, new Set([inboxRecent]), 'inbox events past RETENTION_DAYS are gone');
      assert.equal(inbox.has(inboxOld), false);

      const keys = new Set((await db.selectFrom('post_requests').select('key').execute()).map((r) => r.key));
      assert.deepEqual(keys, new Set([doneFresh, inProgress]), 'keys over 24 hours old are gone, done or abandoned');
      assert.equal(keys.has(doneExpired) || keys.has(abandonedExpired), false);
      const writeKeys = new Set((await db.selectFrom('request_keys').select('key').execute()).map((r) => r.key));
      assert.deepEqual(writeKeys, new Set(writesKept), `platform-write keys over 24 hours old are gone (${writesExpired.join(', ')})`);

      // Nothing left to remove: a second sweep changes nothing.
      const counts = await sweep({ db, signal: new AbortController().signal }, cutoffs(clock.now(), t.config.retentionDays));
      assert.deepEqual(Object.values(counts), [0, 0, 0, 0, 0, 0, 0]);
    });

    test('more than a batch is deleted in several statements; an aborted sweep stops between them', async () => {
      const { db } = store;
      const at = clock.now() - 20 * DAY;
      const rows = Array.from({ length: 2 * BATCH + 7 }, (): Insertable<JobsTable> => {
        const id = newId('job', at);
        return { id, kind: 'test.bulk', payload: '{}', status: 'failed', run_at: at, max_attempts: 1, lane: 'idle', locked_until: null, locked_by: null, last_error: 'x', dedupe_key: null, created_at: at, updated_at: at };
      });
      for (let i = 0; i < rows.length; i += 250) await db.insertInto('jobs').values(rows.slice(i, i + 250)).execute();
      const bulk = async () => (await db.selectFrom('jobs').select('id').where('kind', '=', 'test.bulk').execute()).length;

      const aborted = new AbortController();
      aborted.abort();
      const none = await sweep({ db, signal: aborted.signal }, cutoffs(clock.now(), t.config.retentionDays));
      assert.equal(none.failedJobs, 0);
      assert.equal(await bulk(), rows.length);

      const removed = await sweep({ db, signal: new AbortController().signal }, cutoffs(clock.now(), t.config.retentionDays));
      assert.equal(removed.failedJobs, rows.length);
      assert.equal(await bulk(), 0);
    });
  });

  describe(`store retention: socialapi serve and worker queue the sweep [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase;
    let store: Store;
    before(async () => {
      database = await createTestDatabase(dialect);
      store = await openJobStore(database);
    });
    after(async () => {
      await store?.close();
      await database?.drop();
    });

    test('two workers and a server with a worker queue exactly one sweep, for the next UTC midnight', async () => {
      const env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, PORT: '0', LOG_LEVEL: 'info', SANDBOX: '1', ENCRYPTION_KEY: '11'.repeat(32) };
      const started = [spawnCli(['worker'], env), spawnCli(['worker'], env), spawnCli(['serve'], env)];
      try {
        await started[0]?.waitFor(/worker started/);
        await started[1]?.waitFor(/worker started/);
        await started[2]?.waitFor(/socialapi is listening/);
      } finally {
        await Promise.all(started.map((p) => p.stop()));
      }
      const jobs = await store.db.selectFrom('jobs').selectAll().where('kind', '=', KIND).execute();
      assert.equal(jobs.length, 1);
      const runAt = jobs[0]?.run_at ?? 0;
      assert.equal(runAt % DAY, 0, 'at a UTC midnight');
      assert.ok(runAt > Date.now() - 60_000 && runAt <= Date.now() + DAY);
      assert.equal(jobs[0]?.dedupe_key, dayKey(runAt));
    });
  });
}
