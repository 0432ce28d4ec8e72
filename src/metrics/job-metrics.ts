// Jobs: each handler run timed (wrapped around the definitions, so every worker built from the
// registry has it), and each stored outcome counted (the worker's onSettled and onAbandoned).
import type { JobDefinition } from '../jobs/catalog.ts';
import type { WorkerOptions } from '../jobs/worker.ts';
import type { Metrics } from './metrics.ts';

/** The definitions, each run timed into socialapi_job_duration_seconds. */
export function timeJobRuns(definitions: JobDefinition[], metrics: Metrics | undefined): JobDefinition[] {
  if (!metrics) return definitions;
  return definitions.map((definition) => {
    const lane = definition.lane ?? 'default';
    metrics.knowLane(lane);
    return {
      ...definition,
      async run(payload, context) {
        const started = performance.now();
        try {
          await definition.run(payload, context);
        } finally {
          metrics.jobDuration(lane, definition.kind, (performance.now() - started) / 1000);
        }
      },
    };
  });
}

/** The worker options that count each job's outcome into socialapi_jobs_total. */
export function jobOutcomeObservers(metrics: Metrics | undefined): Pick<WorkerOptions, 'onSettled' | 'onAbandoned'> {
  if (!metrics) return {};
  return {
    onSettled: (job, outcome) => metrics.job(job.lane, job.kind, outcome),
    onAbandoned: (job, reason) => metrics.job(job.lane, job.kind, reason),
  };
}
