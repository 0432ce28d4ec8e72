// A worker process killed with SIGKILL in the middle of a job: nothing runs its shutdown code,
// its lease simply stops being renewed, and another worker reaps the job and runs it again. On
// SQLite the two processes share one database file (WAL).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../src/db/database.ts';
import { enqueue } from '../src/jobs/queue.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { jobRow, openJobStore, startWorker } from './fixtures/jobs.ts';
import { readStarts, recordingJob } from './fixtures/recording-job.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/job-worker.ts', import.meta.url));
const LEASE_MS = 800;

for (const dialect of DIALECTS) {
  describe(`jobs: a worker killed mid-job [${dialect}]`, { skip: skipReason(dialect) }, () => {
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

    test('the job is run again by another worker, its first attempt counted', async (t) => {
      if (!database) throw new Error('no database');
      const record = join(database.dataDir, 'starts.log');
      const job = recordingJob(record, 0);
      // Enqueued before the worker process starts, so it is due at its first look for work
      // (on SQLite no signal crosses processes; the poll would find it too, only later).
      const id = (await enqueue(store.db, store, Date.now(), job, { ref: 'crash' })) ?? '';

      let output = '';
      const child = spawn(process.execPath, [FIXTURE], {
        env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: database.dataDir, JOB_RECORD_FILE: record, JOB_HOLD_MS: '60000', JOB_LEASE_MS: String(LEASE_MS) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      // Awaited, so the suite's `after` drops the database only once the process is gone.
      t.after(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      });

      await waitFor(() => readStarts(record).length === 1 || child.exitCode !== null, 15_000, 'the worker process to start the job').catch((error: unknown) => {
        throw new Error(`${String(error)}; worker output:\n${output}`);
      });
      assert.equal(child.exitCode, null, `the worker process exited early:\n${output}`);
      const running = await jobRow(store, id);
      assert.equal(running?.status, 'running');
      assert.equal(running?.attempts, 1);
      assert.match(running?.locked_by ?? '', new RegExp(`:${child.pid}:`));

      assert.ok(child.kill('SIGKILL'));
      assert.equal(await exited, 'SIGKILL');
      // The lease as the dead worker last renewed it.
      const leaseEnd = (await jobRow(store, id))?.locked_until ?? 0;
      assert.ok(leaseEnd > 0);

      // Another worker, with the same kind (this time quick), takes the job once the dead
      // worker's lease has run out.
      const w = startWorker(store, [job], { leaseMs: LEASE_MS });
      t.after(() => w.stop());
      await waitFor(() => w.settled.length > 0, 10_000, 'the job to run again');

      assert.deepEqual(w.settled.map((s) => [s.job.id, s.job.attempts, s.outcome]), [[id, 2, 'completed']]);
      assert.equal(await jobRow(store, id), undefined);
      const starts = readStarts(record);
      assert.deepEqual(
        starts.map((s) => [s.jobId, s.attempt, s.pid]),
        [
          [id, 1, child.pid],
          [id, 2, process.pid],
        ],
      );
      // Taken once the lease the dead worker had renewed ran out: not before, and not at some
      // later poll (the worker sleeps until the lease's end).
      const again = starts[1]?.at ?? 0;
      assert.ok(again >= leaseEnd, `ran again ${leaseEnd - again} ms before the lease ended`);
      assert.ok(again <= leaseEnd + 1000, `ran again only ${again - leaseEnd} ms after the lease ended`);
    });
  });
}
