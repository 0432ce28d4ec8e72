// Queue depth and the age of the oldest due job, per lane, read from the jobs table when scraped.
// One grouped statement over the due pending rows (the partial index jobs_due on run_at holds
// exactly the pending rows, so the range run_at <= now is all it reads), reused for a short
// while and shared by scrapes that arrive together, so a fast or repeated scraper costs the
// database at most one such read per cache period. Every process on a store reports the same
// values: aggregate them with max(), not sum().
import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../db/database.ts';
import type { JobStatus } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';

interface LaneReading {
  due: number;
  /** run_at of the oldest due job (epoch ms). */
  oldest: number;
}

interface Reading {
  /** Null when the store did not answer. */
  lanes: Map<string, LaneReading> | null;
  now: number;
  readAt: number;
}

export interface QueueGaugeOptions {
  store: Store;
  clock: Clock;
  queueCacheMs?: number;
  /** Lanes to report even with nothing due (seen in this process so far). */
  lanes: () => Set<string>;
}

// A literal, not a bound value: only then do the planners match the partial index (queue.ts).
const PENDING = sql.lit<JobStatus>('pending');

async function readDue(store: Store, now: number): Promise<Map<string, LaneReading>> {
  const rows = await store.db
    .selectFrom('jobs')
    .select((eb) => ['lane', eb.fn.countAll<number | string>().as('due'), eb.fn.min('run_at').as('oldest')])
    .where('status', '=', PENDING)
    .where('run_at', '<=', now)
    .groupBy('lane')
    .execute();
  return new Map(rows.map((row) => [row.lane, { due: Number(row.due), oldest: Number(row.oldest) }]));
}

export function registerQueueGauges(registry: Registry, options: QueueGaugeOptions): void {
  const cacheMs = options.queueCacheMs ?? 2000;
  let last: Reading | null = null;
  let pending: Promise<Reading> | null = null;

  const reading = (): Promise<Reading> => {
    if (last && performance.now() - last.readAt < cacheMs) return Promise.resolve(last);
    pending ??= (async () => {
      const now = options.clock.now();
      let lanes: Map<string, LaneReading> | null;
      try {
        lanes = await readDue(options.store, now);
      } catch {
        lanes = null; // reported as socialapi_store_up 0; the scrape itself still answers
      }
      last = { lanes, now, readAt: performance.now() };
      return last;
    })().finally(() => {
      pending = null;
    });
    return pending;
  };

  /** Every lane worth a series: the ones seen in this process and the ones with due jobs now. */
  const laneNames = (lanes: Map<string, LaneReading>) => new Set([...options.lanes(), ...lanes.keys()]);

  new Gauge({
    name: 'socialapi_jobs_due',
    help: 'Pending jobs whose run_at has come, by lane (the same on every process of a store).',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      const { lanes } = await reading();
      this.reset();
      if (!lanes) return;
      for (const lane of laneNames(lanes)) this.set({ lane }, lanes.get(lane)?.due ?? 0);
    },
  });
  new Gauge({
    name: 'socialapi_jobs_oldest_due_age_seconds',
    help: 'How long the oldest due pending job has waited past its run_at, by lane (0 when none is due).',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      const { lanes, now } = await reading();
      this.reset();
      if (!lanes) return;
      for (const lane of laneNames(lanes)) {
        const oldest = lanes.get(lane)?.oldest;
        this.set({ lane }, oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000);
      }
    },
  });
  new Gauge({
    name: 'socialapi_store_up',
    help: 'Whether the store answered the last scrape-time read of the jobs table (1) or not (0).',
    registers: [registry],
    async collect() {
      this.set((await reading()).lanes ? 1 : 0);
    },
  });
}
