// A lease whose renewal fails or comes back late (issue 21, point 2): the worker holding the job
// gives it up before the lease can run out, so the worker that reaps it never runs it at the same
// time. The renewal is made late for real: another connection holds the job's row locked, so
// the UPDATE waits. PostgreSQL only: on SQLite a writer waiting for the lock blocks its whole
// process (node:sqlite is synchronous), timers included, so the store cannot be slowed from
// outside without stopping the worker being watched.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { Type } from 'typebox';
import type { Store } from '../src/db/database.ts';
import { defineJob } from '../src/jobs/catalog.ts';
import { enqueue } from '../src/jobs/queue.ts';
import { createTestDatabase, skipReason, type TestDatabase } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { jobRow, openJobStore, startWorker, waitForStatus, type TestWorker } from './fixtures/jobs.ts';

const LEASE_MS = 1200;

describe('jobs: a lease that cannot be renewed in time [postgres]', { skip: skipReason('postgres') }, () => {
  let database: TestDatabase | undefined;
  let store: Store;
  const workers: TestWorker[] = [];
  let otherStore: Store | undefined;
  before(async () => {
    database = await createTestDatabase('postgres');
    store = await openJobStore(database);
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await otherStore?.close();
    await store?.close();
    await database?.drop();
  });

  test('the handler is abandoned before the lease ends, and the job runs again only after that', async () => {
    const runs: Array<{ start: number; end: number | null }> = [];
    const kind = defineJob({
      kind: 'test.stalled_renewal',
      payload: Type.Object({}),
      maxAttempts: 3,
      timeoutMs: 60_000,
      async run(_p, c) {
        const run = { start: Date.now(), end: null as number | null };
        runs.push(run);
        // The first run holds until aborted; the second finishes at once.
        if (runs.length === 1) await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve(), { once: true }));
        run.end = Date.now();
      },
    });
    const holder = startWorker(store, [kind], { leaseMs: LEASE_MS, pollIntervalMs: 100 });
    workers.push(holder);
    const id = (await enqueue(store.db, store, Date.now(), kind, {})) ?? '';
    const claimed = await waitForStatus(store, id, 'running');
    await waitFor(() => runs.length === 1, 5000, 'the job to start');

    // Another session locks the row: every renewal from here on waits.
    const blocker = new pg.Client({ connectionString: database?.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      const locked = await blocker.query<{ locked_until: string }>('SELECT locked_until FROM jobs WHERE id = $1 FOR UPDATE', [id]);
      const leaseEnd = Number(locked.rows[0]?.locked_until);
      assert.ok(leaseEnd >= (claimed.locked_until ?? 0));
      await waitFor(() => runs[0]?.end !== null, 3 * LEASE_MS, 'the stalled handler to be abandoned');
      const abandonedAt = runs[0]?.end ?? 0;
      assert.ok(abandonedAt < leaseEnd, `abandoned ${abandonedAt - leaseEnd} ms after its last stored lease end`);
      assert.deepEqual(holder.settled, [], 'an outcome was recorded for an abandoned job');
      await blocker.query('ROLLBACK');
    } finally {
      await blocker.end();
    }

    // The late renewal may have gone through once the lock was let go; whichever end the row
    // holds, the job is taken again (by either worker) only once it has passed.
    if (!database) throw new Error('no database');
    otherStore = await openJobStore(database, { migrate: false });
    const taker = startWorker(otherStore, [kind], { leaseMs: LEASE_MS, pollIntervalMs: 100 });
    workers.push(taker);
    await waitFor(async () => (await jobRow(store, id)) === undefined, 10 * LEASE_MS, 'the job to be run again and completed');
    // The worker reports the outcome just after its delete is stored: wait for the report too.
    await waitFor(() => holder.settled.length + taker.settled.length > 0, 5000, 'the completion to be reported');
    assert.equal(runs.length, 2);
    const [first, second] = runs;
    assert.ok(first?.end !== null && second && second.start >= (first?.end ?? Infinity), 'the two runs overlapped');
    assert.deepEqual([...holder.settled, ...taker.settled].map((s) => [s.outcome, s.job.attempts]), [['completed', 2]]);
  });
});
