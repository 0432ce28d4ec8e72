// The retention module: the daily store sweep, which every worker start queues (once a day
// whatever the number of workers: the job is de-duplicated).
import type { AppDeps } from '../../deps.ts';
import { retentionJob } from './retention-job.ts';
import { scheduleRetention } from './schedule.ts';

export function retentionJobs(deps: AppDeps) {
  return [retentionJob(deps)];
}

/** Queued when a worker starts. */
export async function queueRetention(deps: Pick<AppDeps, 'store' | 'clock'>): Promise<void> {
  await scheduleRetention(deps.store.db, deps.store, deps.clock.now());
}
