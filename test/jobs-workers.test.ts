// Workers against each other and against time, on both stores: two workers racing for the same
// jobs, leases that a live worker keeps and a gone worker loses, and graceful shutdown.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { Type } from 'typebox';
import type { Store } from '../src/db/database.ts';
import { defineJob } from '../src/jobs/catalog.ts';
import { enqueue } from '../src/jobs/queue.ts';
import { currentWriteWatch, watchPlatformWrites } from '../src/lib/platform-writes.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { countJobs, deferred, insertJob, jobRow, openJobStore, startWorker, waitForStatus, type TestWorker } from './fixtures/jobs.ts';

const Empty = Type.Object({});

/** A job kind whose handler waits until its signal is aborted, recording that it was. */
function holdingJob(kind: string, starts: number[], aborts: number[]) {
  return defineJob({
    kind,
    payload: Empty,
    maxAttempts: 3,
    timeoutMs: 60_000,
    retryDelayMs: () => 10,
    async run(_p, c) {
      starts.push(Date.now());
      await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborts.push(Date.now());
    },
  });
}

for (const dialect of DIALECTS) {
  describe(`jobs: workers, leases and shutdown [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase | undefined;
    let store: Store;
    /** Stores opened by a test (a second "process"), closed after its workers stopped. */
    const extraStores: Store[] = [];
    const workers: TestWorker[] = [];
    const otherStore = async () => {
      if (!database) throw new Error('no database');
      const s = await openJobStore(database, { migrate: false });
      extraStores.push(s);
      return s;
    };
    const track = (w: TestWorker) => (workers.push(w), w);

    before(async () => {
      database = await createTestDatabase(dialect);
      store = await openJobStore(database);
    });
    after(async () => {
      await store?.close();
      await database?.drop();
    });
    beforeEach(() => store.db.deleteFrom('jobs').execute());
    const cleanUp = async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await Promise.all(extraStores.splice(0).map((s) => s.close()));
    };

    test('two workers, each with its own pool, racing for 200 jobs: every job runs exactly once', async (t) => {
      t.after(cleanUp);
      const runs = new Map<string, number>();
      const kind = defineJob({
        kind: 'test.count',
        payload: Empty,
        maxAttempts: 1,
        timeoutMs: 5000,
        async run(_p, c) {
          runs.set(c.jobId, (runs.get(c.jobId) ?? 0) + 1);
          await sleep(3);
        },
      });
      const ids = await store.db.transaction().execute(async (trx) => {
        const out: string[] = [];
        for (let i = 0; i < 200; i++) out.push((await enqueue(trx, store, Date.now(), kind, {})) ?? '');
        return out;
      });
      const [storeA, storeB] = [await otherStore(), await otherStore()];
      const a = track(startWorker(storeA, [kind], { concurrency: 8, pollIntervalMs: 50 }));
      const b = track(startWorker(storeB, [kind], { concurrency: 8, pollIntervalMs: 50 }));
      await waitFor(() => a.settled.length + b.settled.length >= 200, 20_000, 'all 200 jobs');
      await waitFor(async () => (await countJobs(store)) === 0, 2000, 'the jobs table to empty');

      assert.equal(runs.size, 200);
      assert.deepEqual([...new Set(runs.values())], [1], 'a job ran more than once');
      assert.deepEqual(new Set(runs.keys()), new Set(ids));
      const settled = [...a.settled, ...b.settled];
      assert.equal(settled.length, 200);
      assert.ok(settled.every((s) => s.outcome === 'completed' && s.job.attempts === 1));
      assert.ok(a.settled.length > 0 && b.settled.length > 0, `both workers took part (${a.settled.length} + ${b.settled.length})`);
    });

    test('a job that runs longer than its lease is not taken by another worker while its own is alive', async (t) => {
      t.after(cleanUp);
      const starts: number[] = [];
      const kind = defineJob({
        kind: 'test.long',
        payload: Empty,
        maxAttempts: 3,
        timeoutMs: 10_000,
        async run() {
          starts.push(Date.now());
          await sleep(1500);
        },
      });
      // 600 ms leases, renewed every 200 ms; the other worker wakes at every lease expiry it sees.
      const options = { leaseMs: 600, pollIntervalMs: 100 };
      const a = track(startWorker(await otherStore(), [kind], options));
      const b = track(startWorker(await otherStore(), [kind], options));
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      const claimed = await waitForStatus(store, id, 'running');
      const leases = new Set<number>();
      await waitFor(async () => {
        const row = await jobRow(store, id);
        if (row?.locked_until) leases.add(row.locked_until);
        return row === undefined;
      }, 5000, 'the job to finish');

      assert.equal(starts.length, 1, 'the job was started twice');
      const settled = [...a.settled, ...b.settled];
      assert.deepEqual(settled.map((s) => [s.outcome, s.job.attempts, s.workerId]), [['completed', 1, claimed.locked_by]]);
      assert.ok(leases.size >= 3, `the lease was renewed (saw ${leases.size} lease ends)`);
      assert.ok(Math.max(...leases) - (claimed.locked_until ?? 0) >= 600, 'the lease was extended past its first end');
    });

    test('a job leased to a worker that is gone is reaped when its lease ends, and run again', async (t) => {
      t.after(cleanUp);
      const attempts: number[] = [];
      const starts: number[] = [];
      const kind = defineJob({
        kind: 'test.orphan',
        payload: Empty,
        maxAttempts: 3,
        timeoutMs: 5000,
        run: (_p, c) => Promise.resolve(void (attempts.push(c.attempt), starts.push(Date.now()))),
      });
      const lockedUntil = Date.now() + 300;
      const id = await insertJob(store, { kind: kind.kind, status: 'running', attempts: 1, locked_by: 'gone-worker', locked_until: lockedUntil });
      // The poll is a minute away: only the worker's wake-up at the lease's end can start it.
      const w = track(startWorker(store, [kind], { pollIntervalMs: 60_000 }));
      await waitFor(() => w.settled.length === 1, 5000, 'the job to run again');
      assert.deepEqual(attempts, [2]);
      const [started = 0] = starts;
      assert.ok(started >= lockedUntil, 'taken before its lease ended');
      assert.ok(started <= lockedUntil + 500, `started ${started - lockedUntil} ms after the lease ended`);
      assert.equal(w.settled[0]?.outcome, 'completed');
      assert.equal(await jobRow(store, id), undefined);
    });

    test('a job whose lease expired on its last attempt ends failed, not run again', async (t) => {
      t.after(cleanUp);
      let runs = 0;
      const kind = defineJob({ kind: 'test.exhausted', payload: Empty, maxAttempts: 2, timeoutMs: 5000, run: () => Promise.resolve(void runs++) });
      const id = await insertJob(store, { kind: kind.kind, status: 'running', attempts: 2, max_attempts: 2, locked_by: 'gone-worker', locked_until: Date.now() - 1 });
      track(startWorker(store, [kind]));
      const row = await waitForStatus(store, id, 'failed');
      assert.equal(row.attempts, 2);
      assert.equal(row.max_attempts, 2);
      assert.match(row.last_error ?? '', /lease expired on the last attempt/);
      assert.equal(row.locked_by, null);
      assert.equal(runs, 0);
    });

    test('a worker that finds its lease taken abandons the job: the handler is aborted and it records nothing', async (t) => {
      t.after(cleanUp);
      const starts: number[] = [];
      const aborts: number[] = [];
      const kind = holdingJob('test.hijacked', starts, aborts);
      const w = track(startWorker(store, [kind], { leaseMs: 300 })); // renewed every 100 ms
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => starts.length === 1, 5000, 'the job to start');
      // As if this worker had hung past its lease, and the job had been reaped and taken.
      await store.db.updateTable('jobs').set({ locked_by: 'another-worker', locked_until: Date.now() + 60_000 }).where('id', '=', id).execute();
      await waitFor(() => aborts.length === 1, 3000, 'the handler to be aborted');
      await waitFor(() => w.worker.busy === 0, 3000, 'the worker to let go of the job');
      assert.deepEqual(w.settled, [], 'an outcome was recorded for a job this worker no longer holds');
      const row = await jobRow(store, id);
      assert.equal(row?.status, 'running');
      assert.equal(row?.locked_by, 'another-worker');
      assert.equal(row?.attempts, 1);
    });

    test('a handler that ends its job in its own transaction: the work and the end land together; with the lease lost, neither', async (t) => {
      t.after(cleanUp);
      await sql`create table if not exists work_done (id text primary key)`.execute(store.db);
      let hijack = false;
      const kind = defineJob({
        kind: 'test.complete-in',
        payload: Empty,
        maxAttempts: 1,
        timeoutMs: 5000,
        async run(_p, c) {
          await store.db.transaction().execute(async (trx) => {
            await sql`insert into work_done (id) values (${c.jobId})`.execute(trx);
            // As if the job had been reaped and taken by another worker meanwhile.
            if (hijack) await trx.updateTable('jobs').set({ locked_by: 'another-worker' }).where('id', '=', c.jobId).execute();
            await c.completeIn(trx);
          });
        },
      });
      const w = track(startWorker(store, [kind]));
      const done = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => w.settled.some((s) => s.job.id === done && s.outcome === 'completed'), 5000, 'the job to complete');
      assert.equal(await jobRow(store, done), undefined, 'the job row is gone');
      assert.equal((await sql<{ id: string }>`select id from work_done where id = ${done}`.execute(store.db)).rows.length, 1);
      hijack = true;
      const lost = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => w.settled.some((s) => s.job.id === lost), 5000, 'the second job to settle');
      const expected = store.caps.writableCte ? 1 : 0; // PostgreSQL ends jobs after the handler, in batches
      assert.equal((await sql<{ id: string }>`select id from work_done where id = ${lost}`.execute(store.db)).rows.length, expected, 'the work of a run that lost its lease');
    });

    test('a job runs in the worker\'s own context, never in that of the request whose enqueue woke it', async (t) => {
      t.after(cleanUp);
      // An API request's platform writes are watched through AsyncLocalStorage (idempotent
      // writes, http/idempotency.ts); a job it wakes must not be taken for one of them.
      const seen = deferred<unknown>();
      const kind = `test.context.${randomBytes(4).toString('hex')}`;
      const job = defineJob({ kind, payload: Empty, maxAttempts: 1, timeoutMs: 5000, retryDelayMs: () => 10, run: () => Promise.resolve(seen.resolve(currentWriteWatch() ?? null)) });
      track(startWorker(store, [job]));
      await sleep(50); // the worker's first look is over
      const watch = { beforeWrite: () => Promise.resolve(), afterWrite: () => undefined };
      await watchPlatformWrites(watch, () => enqueue(store.db, store, Date.now(), job, {}));
      assert.equal(await seen.promise, null);
    });

    test('stop(): a running job that finishes within the shutdown timeout completes', async (t) => {
      t.after(cleanUp);
      const started = deferred();
      const kind = defineJob({
        kind: 'test.finishing',
        payload: Empty,
        maxAttempts: 3,
        timeoutMs: 5000,
        async run() {
          started.resolve();
          await sleep(300);
        },
      });
      const w = track(startWorker(store, [kind], { shutdownTimeoutMs: 3000 }));
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await started.promise;
      await w.stop();
      assert.deepEqual(w.settled.map((s) => s.outcome), ['completed']);
      assert.equal(await jobRow(store, id), undefined);
    });

    test('stop(): a job that outlives the shutdown timeout is aborted and released, its attempt not counted', async (t) => {
      t.after(cleanUp);
      const starts: number[] = [];
      const aborts: number[] = [];
      const kind = holdingJob('test.stuck', starts, aborts);
      const w = track(startWorker(store, [kind], { shutdownTimeoutMs: 200 }));
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => starts.length === 1, 5000, 'the job to start');
      assert.equal((await jobRow(store, id))?.attempts, 1);
      const stopAt = Date.now();
      await w.stop();
      const took = Date.now() - stopAt;
      assert.ok(took >= 190 && took < 2000, `stop() took ${took} ms for a 200 ms shutdown timeout`);
      assert.equal(aborts.length, 1, 'the handler’s signal was not aborted');
      assert.deepEqual(w.settled, [], 'an outcome was recorded for a released job');
      const row = await jobRow(store, id);
      assert.equal(row?.status, 'pending');
      assert.equal(row?.attempts, 0);
      assert.equal(row?.locked_by, null);
      assert.equal(row?.locked_until, null);

      // Another worker takes it, as its first attempt.
      const attempts: number[] = [];
      const done = defineJob({ kind: kind.kind, payload: Empty, maxAttempts: 3, timeoutMs: 5000, run: (_p, c) => Promise.resolve(void attempts.push(c.attempt)) });
      const next = track(startWorker(store, [done]));
      await waitFor(() => next.settled.length === 1, 5000, 'the released job to run');
      assert.deepEqual(attempts, [1]);
      assert.equal(await jobRow(store, id), undefined);
    });

    test('stop(): no job is claimed after stop() began, neither one falling due nor one enqueued meanwhile', async (t) => {
      t.after(cleanUp);
      const started: string[] = [];
      const release = deferred();
      const kind = defineJob({
        kind: 'test.draining',
        payload: Empty,
        maxAttempts: 3,
        timeoutMs: 5000,
        async run(_p, c) {
          started.push(c.jobId);
          if (started.length === 1) await release.promise;
        },
      });
      const w = track(startWorker(store, [kind], { concurrency: 4, shutdownTimeoutMs: 3000 }));
      const running = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await waitFor(() => started.length === 1, 5000, 'the first job to start');
      // Falls due while the worker drains (its wake-up timer is already set for it).
      const fallingDue = (await enqueue(store.db, store, Date.now(), kind, {}, { runAt: Date.now() + 50 })) ?? '';
      const stopping = w.stop();
      const enqueuedDuring = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      await sleep(150); // past fallingDue's time, with the first job still running
      release.resolve();
      await stopping;

      assert.deepEqual(started, [running]);
      assert.deepEqual(w.settled.map((s) => [s.job.id, s.outcome]), [[running, 'completed']]);
      for (const id of [fallingDue, enqueuedDuring]) {
        const row = await jobRow(store, id);
        assert.equal(row?.status, 'pending');
        assert.equal(row?.attempts, 0);
      }
    });

    test('stop() right after start(): the look for work already under way claims nothing', async (t) => {
      t.after(cleanUp);
      const starts: number[] = [];
      const kind = defineJob({ kind: 'test.early', payload: Empty, maxAttempts: 3, timeoutMs: 5000, run: () => Promise.resolve(void starts.push(Date.now())) });
      const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
      const w = track(startWorker(store, [kind]));
      await w.stop();
      // Nothing to wait on for a job that must not start: give a stray claim time to show.
      await sleep(100);
      assert.deepEqual(starts, []);
      const row = await jobRow(store, id);
      assert.equal(row?.status, 'pending');
      assert.equal(row?.attempts, 0);
      assert.equal(row?.locked_by, null);
    });

    test('a worker stopped while its LISTEN connection is being set up leaves no connection open', { skip: dialect !== 'postgres' && 'LISTEN is PostgreSQL only' }, async (t) => {
      if (!database) throw new Error('no database');
      // The workers' connections are tagged, so the test can count them.
      const appName = `jobs_test_${randomBytes(4).toString('hex')}`;
      const url = new URL(database.url);
      url.searchParams.set('application_name', appName);
      const tagged = await openJobStore({ url: url.toString(), dataDir: database.dataDir }, { migrate: false });
      const connections = async () => {
        const { rows } = await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity where application_name = ${appName}`.execute(store.db);
        return Number(rows[0]?.n);
      };
      // A connection left open would keep this test process alive: end it from the server side.
      t.after(() => sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${appName}`.execute(store.db));
      // Stop at every moment of the set-up: before, during and after the connect and the LISTEN.
      for (let delay = 0; delay < 30; delay++) {
        const w = startWorker(tagged, []);
        await sleep(delay);
        await w.stop();
      }
      await tagged.close();
      await waitFor(async () => (await connections()) === 0, 3000, 'every connection of the stopped workers to close');
    });

    test("a job enqueued in a transaction wakes its own lane when it commits, and no other", { skip: dialect !== 'postgres' && 'the NOTIFY that names a lane is PostgreSQL only' }, async (t) => {
      t.after(cleanUp);
      const starts: number[] = [];
      const kind = { ...holdingJob('test.laned', starts, []), lane: 'laned' };
      // Every claim the worker makes, by the lane it looks in (a claim is the update of jobs that
      // counts an attempt, naming its lane among its parameters); and its LISTENs in place.
      const claims: string[] = [];
      let listens = 0;
      const query: (...args: unknown[]) => unknown = Reflect.get(pg.Client.prototype, 'query');
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0] as { text?: string; values?: unknown[] } | string;
        const text = typeof first === 'string' ? first : (first.text ?? '');
        const values = typeof first === 'string' ? (args[1] as unknown[] | undefined) : first.values;
        if (/^update "jobs" set "status" = \$\d+, "attempts" = "attempts" \+/.test(text)) claims.push(String(values?.find((v) => v === 'laned' || v === 'default')));
        const result = query.apply(this, args);
        if (/^LISTEN /.test(text)) void Promise.resolve(result).then(() => listens++);
        return result;
      } as typeof pg.Client.prototype.query;
      t.after(() => {
        pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
      });
      // A poll interval far off: only a wake-up can start the job in time.
      track(startWorker(store, [kind], { concurrency: 2, leaseMs: 60_000, pollIntervalMs: 60_000, shutdownTimeoutMs: 0 }));
      // The worker's first looks are over: its LISTEN is in place, and then no claim for 300 ms
      // (on a loaded machine, the look that follows the LISTEN came after a fixed 300 ms wait).
      await waitFor(() => listens > 0, 5000, 'the worker to listen');
      let seen = -1;
      await waitFor(async () => {
        if (claims.length === seen) return true;
        seen = claims.length;
        await sleep(300);
        return false;
      }, 10_000, 'the first looks to end');
      claims.length = 0;
      await store.db.transaction().execute(async (trx) => {
        await enqueue(trx, store, Date.now(), kind, {});
        await sleep(100);
      });
      await waitFor(() => starts.length === 1, 5000, 'the job to start');
      await sleep(200);
      // One look, in its lane, after the commit: a wake before it would have found nothing, and
      // a wake-up naming no lane would have looked in every lane.
      assert.deepEqual(claims, ['laned']);
    });

    test('with every slot busy the worker sleeps instead of polling the store in a loop', async (t) => {
      t.after(cleanUp);
      const starts: number[] = [];
      const aborts: number[] = [];
      const kind = holdingJob('test.busy', starts, aborts);
      for (let i = 0; i < 3; i++) await enqueue(store.db, store, Date.now(), kind, {});
      let queries = 0;
      const counted = { ...store, db: store.db.withPlugin({ transformQuery: (a) => (queries++, a.node), transformResult: (a) => Promise.resolve(a.result) }) };
      const w = track(startWorker(counted, [kind], { concurrency: 2, leaseMs: 60_000, pollIntervalMs: 1000, shutdownTimeoutMs: 0 }));
      await waitFor(() => starts.length === 2, 5000, 'both slots to fill');
      const before = queries;
      await sleep(300);
      // At most a wake-up or two; a loop on the due third job would run hundreds of queries.
      assert.ok(queries - before <= 10, `${queries - before} queries in 300 ms with every slot busy`);
      assert.equal(w.worker.busy, 2);
    });
  });
}
