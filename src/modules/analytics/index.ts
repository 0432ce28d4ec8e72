// The analytics module (contract "Analytics", issue 17): post and account insights under one
// vocabulary of metric names, demographics, followers online, and a best time to post computed
// from the account's own results. Its job snapshots published targets' insights at 1 hour,
// 24 hours and 7 days; every worker start queues the sweep's next tick.
import type { AppDeps } from '../../deps.ts';
import type { JobDefinition } from '../../jobs/catalog.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { getAccountAnalytics } from './routes/get-account-analytics.ts';
import { getAccountDemographics } from './routes/get-account-demographics.ts';
import { getBestTime } from './routes/get-best-time.ts';
import { getOnlineFollowers } from './routes/get-online-followers.ts';
import { getPostAnalytics } from './routes/get-post-analytics.ts';
import { snapshotJob } from './snapshot-job.ts';
import { queueSnapshotSweep } from './snapshot-schedule.ts';
import { analyticsSchemas as schemas } from './schemas.ts';

export const analyticsRoutes: RouteRegistrar[] = [getPostAnalytics, getAccountAnalytics, getAccountDemographics, getOnlineFollowers, getBestTime];

export const analyticsSchemas = schemas;

export function analyticsJobs(deps: AppDeps): JobDefinition[] {
  return [snapshotJob(deps)];
}

/** Queued when a worker starts: the snapshot sweep's next tick (one job however many workers). */
export async function queueAnalyticsSnapshots(deps: Pick<AppDeps, 'store' | 'clock'>): Promise<void> {
  await queueSnapshotSweep(deps.store.db, deps.store, deps.clock.now());
}
