// The process's Prometheus series and the observer calls that feed them. One Metrics (one
// prom-client Registry) per runtime, handed down through AppDeps and the worker's options, never
// the library's global registry: a test process that starts several servers keeps their counts
// apart. Every observer call is a label lookup and an increment: cheap enough for each request.
// Series read from the database (queue depth, oldest due job) are computed at scrape time
// (queue-gauges.ts); so is the store's pool (store-gauges.ts).
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { MetricsConfig } from '../config.ts';
import type { Store } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { POST_PLATFORMS } from '../modules/posts/schemas.ts';
import { registerQueueGauges } from './queue-gauges.ts';
import { registerStoreGauges } from './store-gauges.ts';

/** Every series name starts with this. */
export const PREFIX = 'socialapi_';

const WEBHOOK_OUTCOMES = ['delivered', 'retrying', 'failed'] as const;
const TARGET_OUTCOMES = ['published', 'processing', 'retrying', 'failed'] as const;

/** How a job run ended, as the worker stored it (or why it stored nothing). */
export type JobOutcome = 'completed' | 'retry' | 'failed' | 'lease_lost' | 'released';
/** A post target's state after one delivery step. */
export type PostTargetOutcome = (typeof TARGET_OUTCOMES)[number];
/** One webhook delivery attempt: delivered, failed with a retry queued, or failed for good. */
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** Whether anything serves /metrics, so whether the process counts at all. */
export const metricsEnabled = (config: MetricsConfig): boolean => config.onApiPort || config.port !== null;

export interface MetricsOptions {
  store: Store;
  clock: Clock;
  /** How long a scrape's reading of the jobs table is reused (default 2 s). */
  queueCacheMs?: number;
}

// Seconds. HTTP answers are mostly milliseconds; jobs and platform calls can take minutes.
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CALL_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const JOB_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class Metrics {
  readonly registry = new Registry();
  readonly #lanes = new Set(['default']);
  readonly #httpRequests = new Counter({ name: `${PREFIX}http_requests_total`, help: 'HTTP requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'] as const, registers: [this.registry] });
  readonly #httpDuration = new Histogram({ name: `${PREFIX}http_request_duration_seconds`, help: 'Time to answer an HTTP request, by method and route pattern.', labelNames: ['method', 'route'] as const, buckets: HTTP_BUCKETS, registers: [this.registry] });
  readonly #jobs = new Counter({ name: `${PREFIX}jobs_total`, help: 'Job runs by lane, kind and outcome (completed, retry, failed, lease_lost, released).', labelNames: ['lane', 'kind', 'outcome'] as const, registers: [this.registry] });
  readonly #jobDuration = new Histogram({ name: `${PREFIX}job_duration_seconds`, help: "Time a job's handler ran, by lane and kind.", labelNames: ['lane', 'kind'] as const, buckets: JOB_BUCKETS, registers: [this.registry] });
  readonly #postTargets = new Counter({ name: `${PREFIX}post_targets_total`, help: 'Post target delivery steps by platform and outcome (published, processing, retrying, failed).', labelNames: ['platform', 'outcome'] as const, registers: [this.registry] });
  readonly #webhooks = new Counter({ name: `${PREFIX}webhook_deliveries_total`, help: 'Webhook delivery attempts by outcome (delivered, retrying, failed).', labelNames: ['outcome'] as const, registers: [this.registry] });
  readonly #webhookDuration = new Histogram({ name: `${PREFIX}webhook_delivery_duration_seconds`, help: 'Time a receiver took to answer a delivery attempt.', buckets: HTTP_BUCKETS, registers: [this.registry] });
  readonly #platformRequests = new Counter({ name: `${PREFIX}platform_requests_total`, help: 'HTTP requests to platform APIs by platform and outcome (ok, client_error, rate_limited, server_error, no_answer).', labelNames: ['platform', 'outcome'] as const, registers: [this.registry] });
  readonly #platformDuration = new Histogram({ name: `${PREFIX}platform_request_duration_seconds`, help: 'Time a platform API took to answer, by platform.', labelNames: ['platform'] as const, buckets: CALL_BUCKETS, registers: [this.registry] });
  readonly #platformErrors = new Counter({ name: `${PREFIX}platform_errors_total`, help: 'Platform operations that failed, by platform and error kind (auth, permission, invalid, rate_limited, transient, permanent …).', labelNames: ['platform', 'kind'] as const, registers: [this.registry] });

  constructor(options: MetricsOptions) {
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    registerQueueGauges(this.registry, { ...options, lanes: () => this.#lanes });
    registerStoreGauges(this.registry, options.store);
    // Outcomes start at 0, so a failure ratio has its series from the first scrape on.
    for (const outcome of WEBHOOK_OUTCOMES) this.#webhooks.inc({ outcome }, 0);
    for (const platform of POST_PLATFORMS) for (const outcome of TARGET_OUTCOMES) this.#postTargets.inc({ platform, outcome }, 0);
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.#httpRequests.inc({ method, route, status });
    this.#httpDuration.observe({ method, route }, seconds);
  }

  /** A lane this process runs, reported by the queue gauges even when nothing in it is due. */
  knowLane(lane: string): void {
    this.#lanes.add(lane);
  }

  job(lane: string, kind: string, outcome: JobOutcome): void {
    this.#lanes.add(lane);
    this.#jobs.inc({ lane, kind, outcome });
  }

  jobDuration(lane: string, kind: string, seconds: number): void {
    this.#jobDuration.observe({ lane, kind }, seconds);
  }

  postTarget(platform: string, outcome: PostTargetOutcome): void {
    this.#postTargets.inc({ platform, outcome });
  }

  webhookDelivery(outcome: WebhookOutcome, seconds: number): void {
    this.#webhooks.inc({ outcome });
    this.#webhookDuration.observe(seconds);
  }

  platformRequest(platform: string, outcome: string, seconds: number): void {
    this.#platformRequests.inc({ platform, outcome });
    this.#platformDuration.observe({ platform }, seconds);
  }

  platformError(platform: string, kind: string): void {
    this.#platformErrors.inc({ platform, kind });
  }

  /** The text exposition of every series, with its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
