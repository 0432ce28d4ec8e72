// The job queue on both stores: transactional enqueue, prompt starts at the due time, retries
// with backoff and an attempt limit, de-duplication keys, and jobs the worker cannot run.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Store } from '../src/db/database.ts';
import { PermanentJobError, RetryJobError, defineJob, jobKind } from '../src/jobs/catalog.ts';
import { enqueue } from '../src/jobs/queue.ts';
import { JOBS_CHANNEL } from '../src/jobs/wakeup.ts';
import { newId } from '../src/lib/ids.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { countJobs, deferred, jobRow, openJobStore, startWorker, waitForStatus } from './fixtures/jobs.ts';

const Ref = Type.Object({ ref: Type.String() });
const Empty = Type.Object({});

for (const dialect of DIALECTS) {
  describe(`jobs: enqueue and run [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase | undefined;
    let store: Store;
    before(async () => {
      database = await createTestDatabase(dialect);
      store = await openJobStore(database);
    });
    after(async () => {
      await store?.close();
      await database?.drop();
    });
    beforeEach(() => store.db.deleteFrom('jobs').execute());

    test('a job enqueued in a transaction that rolls back never runs; committed, it runs', async (t) => {
      const ran: string[] = [];
      const kind = defineJob({ kind: 'test.mark', payload: Ref, maxAttempts: 1, timeoutMs: 5000, run: (p) => Promise.resolve(void ran.push(p.ref)) });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      const change = (trx: typeof store.db, ref: string) =>
        trx.insertInto('organizations').values({ id: newId('organization'), name: ref, approval_required: 0, created_at: Date.now() }).execute();

      let rolledBack = '';
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          await change(trx, 'rolled-back');
          rolledBack = (await enqueue(trx, store, Date.now(), kind, { ref: 'rolled-back' })) ?? '';
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.notEqual(rolledBack, '');
      const committed = await store.db.transaction().execute(async (trx) => {
        await change(trx, 'committed');
        return enqueue(trx, store, Date.now(), kind, { ref: 'committed' });
      });
      assert.ok(committed);

      await waitFor(() => w.settled.some((s) => s.job.id === committed && s.outcome === 'completed'), 5000, 'the committed job');
      // The rolled-back job was enqueued first and would have been due first: it does not exist.
      assert.deepEqual(ran, ['committed']);
      assert.equal(await jobRow(store, rolledBack), undefined);
      assert.equal(await countJobs(store), 0);
      const orgs = await store.db.selectFrom('organizations').select('name').where('name', 'in', ['rolled-back', 'committed']).execute();
      assert.deepEqual(orgs.map((o) => o.name), ['committed']);
    });

    test('a job due in 200 ms starts within 100 ms of its time', async (t) => {
      const starts = new Map<string, number>();
      const kind = defineJob({ kind: 'test.timed', payload: Empty, maxAttempts: 1, timeoutMs: 5000, run: (_p, c) => Promise.resolve(void starts.set(c.jobId, Date.now())) });
      // A poll interval far past the due time: only the worker's own timer can start it.
      const w = startWorker(store, [kind], { pollIntervalMs: 60_000 });
      t.after(() => w.stop());
      const now = Date.now();
      const due = now + 200;
      const id = (await enqueue(store.db, store, now, kind, {}, { runAt: due })) ?? '';
      const started = await waitFor(() => starts.get(id), 3000, 'the job to start');
      assert.ok(started >= due && started <= due + 100, `due at +200 ms, started at +${started - now} ms`);
    });

    test('a job due now starts within 100 ms of its enqueue (wake-up signal, not the poll)', async (t) => {
      const starts = new Map<string, number>();
      const kind = defineJob({ kind: 'test.timed', payload: Empty, maxAttempts: 1, timeoutMs: 5000, run: (_p, c) => Promise.resolve(void starts.set(c.jobId, Date.now())) });
      const w = startWorker(store, [kind], { pollIntervalMs: 60_000 });
      t.after(() => w.stop());
      // A first job, so the worker has looked for work and gone to sleep on its minute-long poll.
      await enqueue(store.db, store, Date.now(), kind, {});
      await waitFor(() => w.settled.length === 1, 3000, 'the first job');
      const now = Date.now();
      const id = (await enqueue(store.db, store, now, kind, {})) ?? '';
      const started = await waitFor(() => starts.get(id), 3000, 'the job to start');
      assert.ok(started - now <= 100, `started ${started - now} ms after enqueue`);
    });

    test('retries with the kind’s delay until it succeeds', async (t) => {
      const starts: number[] = [];
      const delays: number[] = [];
      const kind = defineJob({
        kind: 'test.flaky',
        payload: Empty,
        maxAttempts: 5,
        timeoutMs: 5000,
        retryDelayMs: (attempt) => {
          delays.push(attempt);
          return 40 * attempt;
        },
        run(_p, c) {
          starts.push(Date.now());
          return c.attempt <= 2 ? Promise.reject(new Error(`flake ${c.attempt}`)) : Promise.resolve();
        },
      });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => w.settled.some((s) => s.outcome === 'completed'), 5000, 'the flaky job to succeed');
      assert.deepEqual(
        w.settled.map((s) => [s.job.id, s.job.attempts, s.outcome]),
        [
          [id, 1, 'retry'],
          [id, 2, 'retry'],
          [id, 3, 'completed'],
        ],
      );
      assert.deepEqual(delays, [1, 2]);
      const [first = 0, second = 0, third = 0] = starts;
      assert.ok(second - first >= 40, `second attempt ${second - first} ms after the first`);
      assert.ok(third - second >= 80, `third attempt ${third - second} ms after the second`);
      assert.equal(await jobRow(store, id), undefined);
    });

    test('a job that always fails ends failed after max_attempts, keeping its last error', async (t) => {
      let runs = 0;
      const kind = defineJob({
        kind: 'test.broken',
        payload: Empty,
        maxAttempts: 3,
        timeoutMs: 5000,
        retryDelayMs: () => 10,
        run: (_p, c) => Promise.reject(new Error(`boom ${c.attempt} (run ${++runs})`)),
      });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      const row = await waitForStatus(store, id, 'failed');
      assert.equal(row.attempts, 3);
      assert.equal(row.max_attempts, 3);
      assert.equal(row.last_error, 'boom 3 (run 3)');
      assert.equal(row.locked_by, null);
      assert.equal(row.locked_until, null);
      assert.deepEqual(w.settled.map((s) => s.outcome), ['retry', 'retry', 'failed']);
      assert.equal(runs, 3);
    });

    test('without a retryDelayMs the kind backs off exponentially with jitter (1 s ± 20% after attempt 1)', async (t) => {
      const kind = defineJob({ kind: 'test.default-backoff', payload: Empty, maxAttempts: 3, timeoutMs: 5000, run: () => Promise.reject(new Error('nope')) });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => w.settled.length === 1, 5000, 'the first attempt');
      const row = await jobRow(store, id);
      assert.equal(row?.status, 'pending');
      assert.equal(row?.last_error, 'nope');
      const delay = (row?.run_at ?? 0) - (row?.updated_at ?? 0);
      assert.ok(delay >= 800 && delay <= 1200, `retry delay ${delay} ms`);
    });

    test('PermanentJobError fails the job at once', async (t) => {
      let runs = 0;
      const kind = defineJob({
        kind: 'test.permanent',
        payload: Empty,
        maxAttempts: 5,
        timeoutMs: 5000,
        retryDelayMs: () => 10,
        run: () => Promise.reject(new PermanentJobError(`invalid input (run ${++runs})`)),
      });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      const row = await waitForStatus(store, id, 'failed');
      assert.equal(row.attempts, 1);
      assert.equal(row.last_error, 'invalid input (run 1)');
      assert.equal(runs, 1);
    });

    test('RetryJobError’s delay is honoured instead of the kind’s', async (t) => {
      const starts: number[] = [];
      const kind = defineJob({
        kind: 'test.retry-after',
        payload: Empty,
        maxAttempts: 3,
        timeoutMs: 5000,
        retryDelayMs: () => 10,
        run(_p, c) {
          starts.push(Date.now());
          return c.attempt === 1 ? Promise.reject(new RetryJobError('rate limited', 300)) : Promise.resolve();
        },
      });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => w.settled.length === 1, 5000, 'the first attempt');
      const row = await jobRow(store, id);
      assert.equal(row?.status, 'pending');
      assert.equal(row?.last_error, 'rate limited');
      assert.equal((row?.run_at ?? 0) - (row?.updated_at ?? 0), 300);
      await waitFor(() => w.settled.length === 2, 5000, 'the second attempt');
      assert.equal(w.settled[1]?.outcome, 'completed');
      const [first = 0, second = 0] = starts;
      assert.ok(second >= (row?.run_at ?? Infinity), 'the second attempt started before its time');
      assert.ok(second - first >= 300, `second attempt ${second - first} ms after the first`);
    });

    test('a job that outlives its timeout is aborted and retried', async (t) => {
      const aborted: boolean[] = [];
      const kind = defineJob({
        kind: 'test.slow',
        payload: Empty,
        maxAttempts: 2,
        timeoutMs: 100,
        retryDelayMs: () => 10,
        async run(_p, c) {
          if (c.attempt === 1) {
            await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve(), { once: true }));
            aborted.push(c.signal.aborted);
          }
        },
      });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      await enqueue(store.db, store, Date.now(), kind, {});
      await waitFor(() => w.settled.length === 2, 5000, 'two attempts');
      assert.deepEqual(w.settled.map((s) => s.outcome), ['retry', 'completed']);
      assert.deepEqual(aborted, [true]);
    });

    test('dedupeKey: a second enqueue while the first is pending or running is ignored; after it failed, a new one is accepted', async (t) => {
      const kind = defineJob({ kind: 'test.dedupe', payload: Ref, maxAttempts: 1, timeoutMs: 5000, run: () => Promise.reject(new PermanentJobError('refused')) });
      const first = await enqueue(store.db, store, Date.now(), kind, { ref: 'a' }, { dedupeKey: 'account:1' });
      assert.ok(first);
      assert.equal(await enqueue(store.db, store, Date.now(), kind, { ref: 'b' }, { dedupeKey: 'account:1' }), null);
      // Another key, and no key at all, are not affected.
      assert.ok(await enqueue(store.db, store, Date.now(), kind, { ref: 'c' }, { dedupeKey: 'account:2' }));
      assert.equal(await countJobs(store), 2);

      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      await waitFor(async () => (await jobRow(store, first))?.status === 'failed', 5000, 'the first job to fail');
      const again = await enqueue(store.db, store, Date.now(), kind, { ref: 'd' }, { dedupeKey: 'account:1' });
      assert.ok(again);
      assert.notEqual(again, first);
      assert.equal((await jobRow(store, first))?.status, 'failed');
    });

    test('dedupeKey holds while the job runs, and is free again once it succeeded', async (t) => {
      const release = deferred();
      const started = deferred();
      const kind = defineJob({
        kind: 'test.dedupe-running',
        payload: Empty,
        maxAttempts: 1,
        timeoutMs: 5000,
        async run() {
          started.resolve();
          await release.promise;
        },
      });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      const first = await enqueue(store.db, store, Date.now(), kind, {}, { dedupeKey: 'refresh' });
      assert.ok(first);
      await started.promise;
      assert.equal((await jobRow(store, first))?.status, 'running');
      assert.equal(await enqueue(store.db, store, Date.now(), kind, {}, { dedupeKey: 'refresh' }), null);
      release.resolve();
      await waitFor(() => w.settled.length === 1, 5000, 'the job to finish');
      assert.ok(await enqueue(store.db, store, Date.now(), kind, {}, { dedupeKey: 'refresh' }));
    });

    test('dedupeKey: of two transactions racing to enqueue the same key, one wins', async () => {
      const kind = jobKind('test.race', Type.Object({ n: Type.Number() }), { maxAttempts: 1 });
      const results = await Promise.all(
        [1, 2].map((n) =>
          store.db.transaction().execute(async (trx) => {
            const id = await enqueue(trx, store, Date.now(), kind, { n }, { dedupeKey: 'same' });
            await new Promise((resolve) => setTimeout(resolve, 20)); // hold the transaction open
            return id;
          }),
        ),
      );
      assert.equal(results.filter((id) => id === null).length, 1, `results: ${JSON.stringify(results)}`);
      assert.equal(await countJobs(store), 1);
    });

    test('a job of an unknown kind ends failed, naming the kind', async (t) => {
      const known = defineJob({ kind: 'test.known', payload: Empty, maxAttempts: 1, timeoutMs: 5000, run: () => Promise.resolve() });
      const w = startWorker(store, [known]);
      t.after(() => w.stop());
      const id = (await enqueue(store.db, store, Date.now(), jobKind('test.vanished', Empty, { maxAttempts: 3 }), {})) ?? '';
      const row = await waitForStatus(store, id, 'failed');
      assert.equal(row.last_error, 'no handler for job kind test.vanished');
      assert.equal(row.attempts, 1);
    });

    test('a payload that does not match the kind’s schema ends failed, saying what is wrong, and the handler never runs', async (t) => {
      let runs = 0;
      const kind = defineJob({ kind: 'test.typed', payload: Type.Object({ accountId: Type.String() }), maxAttempts: 3, timeoutMs: 5000, run: () => Promise.resolve(void runs++) });
      const w = startWorker(store, [kind]);
      t.after(() => w.stop());
      // Queued as an older declaration of the kind had it (enqueue() checks payloads at compile time).
      const older = jobKind('test.typed', Type.Object({ accountId: Type.Number() }), { maxAttempts: 3 });
      const id = (await enqueue(store.db, store, Date.now(), older, { accountId: 42 })) ?? '';
      const row = await waitForStatus(store, id, 'failed');
      assert.match(row.last_error ?? '', /^payload does not match job kind test\.typed: \/accountId /);
      assert.equal(row.attempts, 1);
      assert.equal(runs, 0);
    });

    test('a job enqueued through another connection pool wakes the worker through LISTEN/NOTIFY', { skip: dialect !== 'postgres' && 'LISTEN/NOTIFY is PostgreSQL only' }, async (t) => {
      if (!database) throw new Error('no database');
      const starts = new Map<string, number>();
      const kind = defineJob({ kind: 'test.notified', payload: Empty, maxAttempts: 1, timeoutMs: 5000, run: (_p, c) => Promise.resolve(void starts.set(c.jobId, Date.now())) });
      // The worker's pool is tagged, so the test can see when its LISTEN connection is up.
      const appName = `jobs_test_${randomBytes(4).toString('hex')}`;
      const url = new URL(database.url);
      url.searchParams.set('application_name', appName);
      const workerStore = await openJobStore({ url: url.toString(), dataDir: database.dataDir }, { migrate: false });
      const w = startWorker(workerStore, [kind], { pollIntervalMs: 60_000 });
      t.after(async () => {
        await w.stop();
        await workerStore.close();
      });
      await waitFor(async () => {
        const { rows } = await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity where application_name = ${appName} and query = ${`LISTEN ${JOBS_CHANNEL}`}`.execute(store.db);
        return Number(rows[0]?.n) > 0;
      }, 5000, 'the worker to listen');
      const now = Date.now();
      const id = (await store.db.transaction().execute((trx) => enqueue(trx, store, now, kind, {}))) ?? '';
      const started = await waitFor(() => starts.get(id), 3000, 'the job to start');
      assert.ok(started - now <= 100, `started ${started - now} ms after enqueue`);
    });
  });
}
