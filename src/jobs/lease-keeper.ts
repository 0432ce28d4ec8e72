// The leases of one worker's running jobs, renewed together: one statement every third of a lease
// for all of them, instead of one per job. With a few hundred jobs in flight, per-job renewals
// were a steady stream of statements queued in the same small pool as the jobs' own, and under
// load they came back late enough to cost jobs their leases.
//
// A renewal that fails or comes back late must not let a lease run out under a job still running
// here: each job is given up (onLost) a quarter of a lease before the last end this worker knows
// was stored, so that it is never run here and by the worker that reaps it at the same time. A
// job whose row no longer names this worker (it was reaped, perhaps taken) is given up at the
// first renewal that misses it.
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database, JobStatus } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';

const RUNNING = sql.lit<JobStatus>('running');

/** Extends the leases of `jobIds` still leased to `workerId`; returns the ids it extended. */
export async function renewLeases(db: Kysely<Database>, workerId: string, jobIds: readonly string[], until: number): Promise<Set<string>> {
  if (jobIds.length === 0) return new Set();
  const rows = await db
    .updateTable('jobs')
    .set({ locked_until: until })
    .where('locked_by', '=', workerId)
    .where('status', '=', RUNNING)
    .where('id', 'in', jobIds)
    .returning('id')
    .execute();
  return new Set(rows.map((row) => row.id));
}

interface Held {
  onLost: (reason: Error) => void;
  deadline: NodeJS.Timeout;
}

export class LeaseKeeper {
  readonly #held = new Map<string, Held>();
  readonly #db: Kysely<Database>;
  readonly #workerId: string;
  readonly #clock: Clock;
  readonly #leaseMs: number;
  readonly #log: FastifyBaseLogger;
  #timer: NodeJS.Timeout | undefined;
  #renewing = false;

  constructor(options: { db: Kysely<Database>; workerId: string; clock: Clock; leaseMs: number; log: FastifyBaseLogger }) {
    this.#db = options.db;
    this.#workerId = options.workerId;
    this.#clock = options.clock;
    this.#leaseMs = options.leaseMs;
    this.#log = options.log;
  }

  /** Keeps a claimed job's lease (ending at `lockedUntil`) until the returned function is called. */
  hold(jobId: string, lockedUntil: number, onLost: (reason: Error) => void): () => void {
    const held: Held = { onLost, deadline: this.#giveUpAt(jobId, lockedUntil, onLost) };
    this.#held.set(jobId, held);
    this.#timer ??= setInterval(() => void this.#renew(), Math.max(50, Math.floor(this.#leaseMs / 3))).unref();
    return () => this.#drop(jobId, held);
  }

  #giveUpAt(jobId: string, until: number, onLost: (reason: Error) => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      if (this.#held.get(jobId)?.onLost !== onLost) return;
      this.#held.delete(jobId);
      onLost(new Error('lease not renewed in time'));
    }, Math.max(0, until - Math.floor(this.#leaseMs / 4) - this.#clock.now()));
    return timer.unref();
  }

  #drop(jobId: string, held: Held): void {
    clearTimeout(held.deadline);
    if (this.#held.get(jobId) === held) this.#held.delete(jobId);
    if (this.#held.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async #renew(): Promise<void> {
    // One renewal at a time: a slow one is not joined by another for the same jobs.
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = true;
    const asked = [...this.#held.entries()];
    const until = this.#clock.now() + this.#leaseMs;
    try {
      const kept = await renewLeases(this.#db, this.#workerId, asked.map(([id]) => id), until);
      for (const [id, held] of asked) {
        if (this.#held.get(id) !== held) continue; // finished or given up meanwhile
        if (kept.has(id)) {
          clearTimeout(held.deadline);
          held.deadline = this.#giveUpAt(id, until, held.onLost);
        } else {
          this.#drop(id, held);
          held.onLost(new Error('lease lost'));
        }
      }
    } catch (error) {
      this.#log.warn({ err: error, jobs: asked.length }, 'lease renewal failed');
    } finally {
      this.#renewing = false;
    }
  }

  /** Stops renewing (the worker is stopping; its jobs are finished or released). */
  close(): void {
    for (const [id, held] of [...this.#held]) this.#drop(id, held);
  }
}
