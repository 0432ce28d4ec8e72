// The worker: claims due jobs, runs them with a lease it keeps renewing, and records the outcome.
// It sleeps until the earliest due job or lease expiry, or until woken by an enqueue, so a due
// job starts within milliseconds; the poll interval is only a safety net.
import type { FastifyBaseLogger } from 'fastify';
import { AsyncResource } from 'node:async_hooks';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { batched, type Batched } from '../db/batched.ts';
import type { Store } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { exponentialBackoff } from './backoff.ts';
import { PermanentJobError, RetryJobError, type JobRegistry } from './catalog.ts';
import { claimDue, COMPLETION_BATCH, completeJobIn, completeJobs, failJob, nextTimes, reapExpiredLeases, releaseJobs, retryJob } from './queue.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import { subscribeLaneWakeups, subscribeWakeups, type Subscription } from './wakeup.ts';

export interface WorkerOptions {
  store: Store;
  registry: JobRegistry;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Slots of the default lane. */
  concurrency: number;
  /** Slots of the other lanes, by name (kinds choose their lane in their definition). */
  lanes?: Record<string, number>;
  leaseMs: number;
  pollIntervalMs: number;
  shutdownTimeoutMs: number;
  /** Called after each job's outcome is stored (tests and metrics). */
  onSettled?: (job: JobRow, outcome: 'completed' | 'retry' | 'failed') => void;
  /** Called when a run ends without an outcome of this worker's: its lease was lost, or it was released at shutdown (metrics). */
  onAbandoned?: (job: JobRow, reason: 'lease_lost' | 'released') => void;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

export class Worker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  readonly #o: WorkerOptions;
  readonly #running = new Map<string, { promise: Promise<void>; abort: AbortController; lane: string }>();
  #subscription: Subscription | null = null;
  #laneSubscription: (() => void) | null = null;
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  /** The look for work under way (resolved when none is); stop() waits for it. */
  #tickDone: Promise<void> = Promise.resolve();
  #again = false;
  /** No lease can have expired before this (from the last look at the leases); 0: look now. */
  #reapAt = 0;
  /**
   * Deletes a finished job's row. Jobs that finish while a delete is under way wait and go
   * together in the next one (db/batched.ts), so a busy worker spends one round trip on many
   * completions and an idle one adds no delay. stop() waits for them.
   */
  readonly #complete: Batched<string, void>;
  #stopping = false;
  #stopped: Promise<void> | null = null;

  /**
   * Per lane, what this worker knows of its pending jobs (see #tick): dueAt 0, look now (a job may
   * be due); null, none was due at the last claim and the next is unknown (read it); otherwise
   * the earliest pending run_at known (Infinity: none pending).
   */
  readonly #lanes: Array<{ name: string; slots: number; dueAt: number | null }>;
  /** Wake-ups heard (enqueues here or elsewhere): a look's result older than one is not kept. */
  #heard = 0;
  readonly #leases: LeaseKeeper;

  /**
   * A look, run in the async context the worker was made in. wake() is called from whatever woke
   * it (an enqueue inside an API request), and the jobs a look starts must not inherit that
   * request's context: its idempotency watch would take their platform calls for its own.
   */
  readonly #tickInOwnContext = AsyncResource.bind(() => this.#tick());

  constructor(options: WorkerOptions) {
    this.#o = options;
    this.#lanes = this.#laneList();
    this.#leases = new LeaseKeeper({ db: options.store.db, workerId: this.id, clock: options.clock, leaseMs: options.leaseMs, log: options.log });
    this.#complete = batched(async (jobIds: string[]) => {
      await completeJobs(options.store.db, this.id, jobIds);
      return jobIds.map(() => undefined);
    }, COMPLETION_BATCH);
  }

  start(): void {
    this.#laneSubscription = subscribeLaneWakeups((lane) => this.#heardLane(lane));
    this.#subscription = subscribeWakeups(
      this.#o.store,
      (lane) => (lane === undefined ? this.#heardWakeup() : this.#heardLane(lane)),
      (error) => this.#o.log.warn({ err: error }, 'job wake-up listener failed; retrying'),
    );
    this.wake();
  }

  /** A job was enqueued, here or in another process, and its lane is not said: every lane looks. */
  #heardWakeup(): void {
    this.#heard++;
    for (const lane of this.#lanes) lane.dueAt = 0;
    this.wake();
  }

  /** A job was enqueued in `name` (by this process, or by any on PostgreSQL): that lane looks. */
  #heardLane(name: string): void {
    const lane = this.#lanes.find((l) => l.name === name);
    if (!lane) return this.#heardWakeup();
    this.#heard++;
    lane.dueAt = 0;
    this.wake();
  }

  /** Looks for work now (coalesced: at most one look at a time, and one more queued). */
  wake(): void {
    if (this.#stopping) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    this.#ticking = true;
    this.#tickDone = this.#tickInOwnContext().finally(() => {
      this.#ticking = false;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  // A look claims only the lanes that may have a due job: those a wake-up marked (an enqueue
  // announces itself, here and on PostgreSQL from other processes), those whose known earliest
  // run_at has come, and all of them whenever the leases are reaped (at an expiry seen, and at
  // least every poll interval: the net for what no wake-up announces, such as another worker's
  // retry or reap). A job's end alone (a slot freed) then costs no statement when no lane is due.
  async #tick(): Promise<void> {
    const { store, clock, leaseMs, pollIntervalMs } = this.#o;
    try {
      const now = clock.now();
      // Reaping is needed only once a lease may have run out: at the earliest expiry seen, and at
      // least every poll interval (a lease taken since, by a worker with a shorter lease).
      if (now >= this.#reapAt) {
        this.#reapAt = now + pollIntervalMs;
        for (const lane of this.#lanes) lane.dueAt = 0;
        await reapExpiredLeases(store.db, now);
      }
      for (const lane of this.#lanes) {
        const free = lane.slots - this.#inLane(lane.name);
        if (free <= 0 || this.#stopping || lane.dueAt === null || lane.dueAt > now) continue;
        const heard = this.#heard;
        const jobs = await claimDue(store, this.id, now, leaseMs, free, lane.name);
        if (this.#stopping) {
          // stop() began while this claim was on its way: hand the jobs back unstarted.
          await releaseJobs(store.db, this.id, clock.now(), jobs.map((job) => job.id));
          return;
        }
        for (const job of jobs) this.#launch(job, lane.name);
        if (jobs.length === free) {
          this.#again = true; // there may be more due right now
        } else if (this.#heard === heard) {
          // Nothing more was due when the claim ran; a wake-up heard since may announce a job it
          // did not see, and leaves the lane marked (0) for the look that follows.
          lane.dueAt = null;
        }
      }
      // A lane filled every free slot: the look that follows at once (#again) sets the timer.
      if (this.#stopping || this.#again) return;
      // With every slot taken, a due job cannot be claimed anyway, and a slot that frees wakes
      // the worker: sleeping until the (already passed) due time would spin on the database.
      const open = this.#lanes.filter((lane) => this.#inLane(lane.name) < lane.slots);
      if (open.some((lane) => lane.dueAt === null)) {
        const heard = this.#heard;
        const times = await nextTimes(store.db, this.#lanes.map((lane) => lane.name));
        if (times.leaseExpiresAt != null) this.#reapAt = Math.min(this.#reapAt, times.leaseExpiresAt);
        // Kept only if no wake-up came meanwhile (it marked every lane, and a look follows).
        if (this.#heard === heard) this.#lanes.forEach((lane, i) => (lane.dueAt = times.dueAt[i] ?? Infinity));
      }
      // The next wake: an open lane's earliest due job, or the next reap (an expiring lease).
      let next = this.#reapAt;
      for (const lane of open) next = Math.min(next, lane.dueAt ?? now);
      this.#schedule(Math.max(0, Math.min(pollIntervalMs, next - clock.now())));
    } catch (error) {
      this.#o.log.error({ err: error }, 'job claim failed');
      // Whatever the failed look learned or not, the next one looks at every lane.
      for (const lane of this.#lanes) lane.dueAt = 0;
      this.#schedule(pollIntervalMs);
    }
  }

  #schedule(delayMs: number): void {
    if (this.#stopping) return;
    clearTimeout(this.#timer);
    // Not unref'd: a started worker keeps its process alive until stop(). On SQLite nothing
    // else does (no server, no LISTEN connection), and `socialapi worker` would exit at once.
    this.#timer = setTimeout(() => this.wake(), delayMs);
  }

  /**
   * The default lane and every lane a registered kind names; a lane without configured slots
   * gets the default lane's count, so no kind's jobs can be left unclaimed.
   */
  #laneList(): Array<{ name: string; slots: number; dueAt: number | null }> {
    const names = new Set(['default']);
    for (const { definition } of this.#o.registry.values()) names.add(definition.lane ?? 'default');
    return [...names].map((name) => ({ name, slots: name === 'default' ? this.#o.concurrency : (this.#o.lanes?.[name] ?? this.#o.concurrency), dueAt: 0 }));
  }

  #inLane(lane: string): number {
    let count = 0;
    for (const running of this.#running.values()) if (running.lane === lane) count++;
    return count;
  }

  #launch(job: JobRow, lane: string): void {
    const abort = new AbortController();
    const promise = this.#run(job, abort)
      // Storing the outcome failed (the database went away): the job keeps its lease, which
      // expires, and the job is reaped and run again. Never an unhandled rejection.
      .catch((error: unknown) => this.#o.log.error({ err: error, jobId: job.id }, 'could not record the job outcome'))
      .finally(() => {
        this.#running.delete(job.id);
        this.wake(); // a slot is free
      });
    this.#running.set(job.id, { promise, abort, lane });
  }

  async #run(job: JobRow, abort: AbortController): Promise<void> {
    const { store, clock, registry, leaseMs, log } = this.#o;
    const db = store.db;
    const settle = (outcome: 'completed' | 'retry' | 'failed') => this.#o.onSettled?.(job, outcome);
    const registered = registry.get(job.kind);
    if (!registered) {
      await failJob(db, job.id, this.id, clock.now(), `no handler for job kind ${job.kind}`);
      return settle('failed');
    }
    const { definition } = registered;
    if (job.attempts > job.max_attempts) {
      // A guard: the reaper fails a job whose lease expired on its last attempt, so a job
      // should never be claimed past its limit.
      await failJob(db, job.id, this.id, clock.now(), `gave up after ${job.max_attempts} attempts (${job.last_error ?? 'lease expired'})`);
      return settle('failed');
    }
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
    } catch {
      payload = undefined;
    }
    if (!registered.check(payload)) {
      const problem = payload === undefined ? 'not valid JSON' : registered.explain(payload);
      await failJob(db, job.id, this.id, clock.now(), `payload does not match job kind ${job.kind}: ${problem}`);
      return settle('failed');
    }

    // Made when first used: most jobs log nothing, and a child logger cost more than a small job.
    let childLog: FastifyBaseLogger | undefined;
    const jobLog = () => (childLog ??= log.child({ jobId: job.id, kind: job.kind, attempt: job.attempts }));
    let finished = false;
    // The handler ended the job in its own transaction (JobContext.completeIn).
    let completedInside = false;
    // The lease is renewed while the handler runs (lease-keeper.ts); losing it, or failing to
    // renew it in time, means another worker may take the job: this run is abandoned.
    const releaseLease = this.#leases.hold(job.id, job.locked_until ?? clock.now() + leaseMs, (reason) => {
      if (finished || abort.signal.aborted) return;
      jobLog().warn(`${reason.message}; abandoning the job`);
      abort.abort(reason);
    });
    // The handler's signal: aborted by the release (shutdown, lease lost) or by the time limit.
    // One controller and one timer, cheaper than AbortSignal.timeout and AbortSignal.any per job.
    const stop = new AbortController();
    let timedOut = false;
    const onRelease = () => stop.abort(abort.signal.reason);
    abort.signal.addEventListener('abort', onRelease, { once: true });
    const limit = setTimeout(() => {
      timedOut = true;
      stop.abort(new Error(`timed out after ${definition.timeoutMs} ms`));
    }, definition.timeoutMs);
    limit.unref();
    const { signal } = stop;

    try {
      await new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
        const completeIn = async (trx: typeof db) => {
          if (store.caps.writableCte) return; // PostgreSQL: the batched delete below
          if (!(await completeJobIn(trx, this.id, job.id))) throw new Error('the job is no longer this run\'s (its lease ended); its work is not recorded');
          completedInside = true;
        };
        const context = { jobId: job.id, attempt: job.attempts, maxAttempts: job.max_attempts, signal, db, completeIn, get log() { return jobLog(); } };
        definition.run(payload, context).then(resolve, reject);
      });
      finished = true;
      // The slot is the handler's: it frees now, while the row's delete waits for its batch.
      // Should the delete fail (the database went away), the job keeps its lease, which expires,
      // and the job is reaped and run again.
      if (completedInside) settle('completed');
      else void this.#complete(job.id).then(() => settle('completed'), (error: unknown) => log.error({ err: error, jobId: job.id }, 'could not record the job outcome'));
    } catch (error) {
      finished = true;
      // Released at shutdown, or the lease was lost (the job was reaped; another worker may be
      // running it): either way the row is no longer this worker's to record an outcome on.
      if (abort.signal.aborted) return this.#o.onAbandoned?.(job, this.#stopping ? 'released' : 'lease_lost');
      const now = clock.now();
      const message = timedOut ? `timed out after ${definition.timeoutMs} ms` : describe(error);
      if (error instanceof PermanentJobError || job.attempts >= job.max_attempts) {
        jobLog().warn({ err: error }, 'job failed');
        await failJob(db, job.id, this.id, now, message);
        settle('failed');
      } else {
        const delay = error instanceof RetryJobError ? error.delayMs : (definition.retryDelayMs ?? exponentialBackoff)(job.attempts);
        jobLog().info({ err: error, retryInMs: delay }, 'job will be retried');
        await retryJob(db, job.id, this.id, now, now + delay, message);
        this.#pending(job, now + delay);
        settle('retry');
      }
    } finally {
      releaseLease();
      clearTimeout(limit);
      abort.signal.removeEventListener('abort', onRelease);
    }
  }

  /**
   * This worker made `job` pending again, due at `runAt`: its lane's next look is due by then
   * (counted as a wake-up, so that a read of the lanes begun before it does not undo this).
   */
  #pending(job: JobRow, runAt: number): void {
    this.#heard++;
    const lane = this.#lanes.find((l) => l.name === job.lane);
    if (lane && lane.dueAt !== null) lane.dueAt = Math.min(lane.dueAt, runAt);
  }

  /**
   * Stops claiming, lets running jobs finish within the shutdown timeout, releases the rest.
   * Calling it again returns the same promise.
   */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    this.#laneSubscription?.();
    await this.#subscription?.close();
    // A look for work under way finishes first (it claims nothing more), so every job this
    // worker will ever run is in #running below.
    await this.#tickDone;
    const running = [...this.#running.values()];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#o.shutdownTimeoutMs);
    });
    const outcome = await Promise.race([Promise.allSettled(running.map((r) => r.promise)).then(() => 'done' as const), deadline]);
    clearTimeout(timer);
    if (outcome === 'timeout') for (const r of running) r.abort.abort(new Error('worker shutting down'));
    // Finished jobs' rows are deleted first: releasing them would have them run again.
    await this.#complete.idle();
    if (outcome === 'timeout') {
      const released = await releaseJobs(this.#o.store.db, this.id, this.#o.clock.now());
      this.#o.log.info({ released }, 'released unfinished jobs at shutdown');
    }
    this.#leases.close();
  }

  /** Jobs this worker is running now. */
  get busy(): number {
    return this.#running.size;
  }
}
