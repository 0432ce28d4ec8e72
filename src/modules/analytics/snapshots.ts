// Reading a published target's insights from its platform, and keeping them as snapshots: one
// row per target and stage, the newest that got values marked `latest` (post analytics answer from it, best time
// reads its engagement). A read never fails as a whole: the platform's refusal of the call or of
// one metric is kept beside the values, as the answer shows it.
import type { Kysely } from 'kysely';
import type { AccountRow, Database, PostTargetRow, SnapshotStage } from '../../db/schema.ts';
import { PlatformError } from '../../platforms/errors.ts';
import { ENGAGEMENT_METRICS, type MetricName } from '../../platforms/insights-types.ts';
import { callPlatform } from '../accounts/platform-call.ts';
import { asFailure, metricFailure, type AnalyticsDeps } from './common.ts';
import type { FailureView } from './schemas.ts';

export interface TargetRead {
  takenAt: number;
  metrics: Partial<Record<MetricName, number>>;
  unsupported: MetricName[];
  errors: FailureView[];
  /** The whole read failed for a reason that may pass (a timeout, a rate limit). */
  retryable: boolean;
}

type Target = Pick<PostTargetRow, 'id' | 'platform' | 'platform_post_id'>;

/** Every metric the target's platform offers for posts, read now. */
export async function readTarget(deps: AnalyticsDeps, account: AccountRow, target: Target, metrics?: readonly MetricName[]): Promise<TargetRead> {
  const reader = deps.platforms.of(target.platform)?.postInsights;
  const takenAt = deps.clock.now();
  const asked = metrics ?? reader?.metrics ?? [];
  if (!reader) return { takenAt, metrics: {}, unsupported: [...asked], errors: [], retryable: false };
  let retryable = false;
  try {
    const readout = await callPlatform(deps, account, async (credentials) => {
      try {
        return await reader.post(credentials, target.platform_post_id ?? '', asked);
      } catch (error) {
        if (error instanceof PlatformError) retryable = error.retryable;
        throw error;
      }
    });
    return { takenAt, metrics: readout.values, unsupported: readout.unsupported, errors: readout.failures.map(metricFailure), retryable: false };
  } catch (error) {
    return { takenAt, metrics: {}, unsupported: [], errors: [asFailure(error)], retryable };
  }
}

export const engagementOf = (metrics: Partial<Record<MetricName, number>>): number => Math.round(ENGAGEMENT_METRICS.reduce((sum, m) => sum + (metrics[m] ?? 0), 0));

/**
 * Keeps a read as the target's `stage` row and, when it got any value, makes it the newest: a
 * read that failed as a whole (a lost permission, an expired token) is kept for the record but
 * does not hide the values of an earlier one. A scheduled stage is taken once (a second sweep
 * that reaches it does nothing: false); `refresh` replaces the last one.
 */
export async function recordSnapshot(db: Kysely<Database>, target: Pick<PostTargetRow, 'id' | 'organization_id' | 'account_id' | 'published_at'>, stage: SnapshotStage, read: TargetRead): Promise<boolean> {
  const hasValues = Object.keys(read.metrics).length > 0;
  return db.transaction().execute(async (trx) => {
    const row = {
      target_id: target.id,
      stage,
      organization_id: target.organization_id,
      account_id: target.account_id,
      published_at: Number(target.published_at ?? read.takenAt),
      taken_at: read.takenAt,
      metrics: JSON.stringify(read.metrics),
      unsupported: JSON.stringify(read.unsupported),
      errors: JSON.stringify(read.errors),
      engagement: engagementOf(read.metrics),
      latest: hasValues ? (1 as const) : (0 as const),
    };
    const inserted = await trx
      .insertInto('analytics_snapshots')
      .values(row)
      .onConflict((oc) => (stage === 'refresh' ? oc.columns(['target_id', 'stage']).doUpdateSet({ taken_at: row.taken_at, metrics: row.metrics, unsupported: row.unsupported, errors: row.errors, engagement: row.engagement, latest: row.latest }) : oc.columns(['target_id', 'stage']).doNothing()))
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    if (!hasValues) return true;
    await trx.updateTable('analytics_snapshots').set({ latest: 0 }).where('target_id', '=', target.id).where('stage', '<>', stage).where('latest', '=', 1).execute();
    return true;
  });
}

export interface StoredSnapshot {
  stage: SnapshotStage;
  read: TargetRead;
}

/** The newest snapshot of each of these targets. */
export async function latestSnapshots(db: Kysely<Database>, targetIds: string[]): Promise<Map<string, StoredSnapshot>> {
  if (!targetIds.length) return new Map();
  const rows = await db.selectFrom('analytics_snapshots').selectAll().where('target_id', 'in', targetIds).where('latest', '=', 1).execute();
  return new Map(
    rows.map((r) => [
      r.target_id,
      {
        stage: r.stage,
        read: {
          takenAt: Number(r.taken_at),
          metrics: JSON.parse(r.metrics) as Partial<Record<MetricName, number>>,
          unsupported: JSON.parse(r.unsupported) as MetricName[],
          errors: JSON.parse(r.errors) as FailureView[],
          retryable: false,
        },
      },
    ]),
  );
}
