// GET /analytics/posts/{id}: the insights of each published target of a post, under our metric
// names. Answered from the target's newest snapshot with values unless refresh=1 (or there is
// none yet); a live read is kept as the target's `refresh` snapshot when it got any value. One target's
// failure (its token, its permission, the platform) is that target's error beside the others.
import type { PostTargetRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import type { MetricName } from '../../platforms/insights-types.ts';
import { asFailure, findAccount, iso, parseMetrics, type AnalyticsDeps } from './common.ts';
import type { TargetInsightsView } from './schemas.ts';
import { latestSnapshots, readTarget, recordSnapshot, type StoredSnapshot, type TargetRead } from './snapshots.ts';

export interface PostAnalyticsQuery {
  metrics?: string | undefined;
  accountId?: string | undefined;
  refresh?: string | undefined;
}

/** Every name any platform offers for posts, in our vocabulary's order. */
function offeredByAny(deps: AnalyticsDeps): MetricName[] {
  return [...new Set(Object.values(deps.platforms.adapters).flatMap((a) => a.postInsights?.metrics ?? []))];
}

export async function postAnalytics(deps: AnalyticsDeps, tenant: Tenant, postId: string, query: PostAnalyticsQuery): Promise<{ postId: string; targets: TargetInsightsView[] }> {
  const asked = query.metrics === undefined || query.metrics.trim() === '' ? null : parseMetrics(query.metrics, offeredByAny(deps));
  if (query.refresh !== undefined && !['0', '1', 'true', 'false'].includes(query.refresh)) throw errors.invalid('refresh', 'one of 1, 0, true, false');
  const refresh = query.refresh === '1' || query.refresh === 'true';
  const post = await tenant.selectFrom('posts').select('id').where('id', '=', postId).executeTakeFirst();
  if (!post) throw errors.notFound('Post');
  let targets = await tenant.selectFrom('post_targets').selectAll().where('post_id', '=', post.id).where('status', '=', 'published').where('platform_post_id', 'is not', null).orderBy('position').execute();
  if (query.accountId !== undefined) {
    targets = targets.filter((t) => t.account_id === query.accountId);
    if (!targets.length) throw errors.invalid('accountId', 'not the account of a published target of this post');
  }
  const stored: Map<string, StoredSnapshot> = refresh ? new Map<string, StoredSnapshot>() : await latestSnapshots(deps.store.db, targets.map((t) => t.id));
  const answers: TargetInsightsView[] = [];
  for (const target of targets) {
    const offered = deps.platforms.of(target.platform)?.postInsights?.metrics ?? [];
    const snapshot = stored.get(target.id);
    if (snapshot) {
      answers.push(present(target, narrow(snapshot.read, asked, offered), 'snapshot', snapshot.stage));
      continue;
    }
    const read = await liveRead(deps, tenant, target);
    if (Object.keys(read.metrics).length) await recordSnapshot(deps.store.db, target, 'refresh', read);
    answers.push(present(target, narrow(read, asked, offered), 'live', null));
  }
  return { postId: post.id, targets: answers };
}

async function liveRead(deps: AnalyticsDeps, tenant: Tenant, target: PostTargetRow): Promise<TargetRead> {
  try {
    return await readTarget(deps, await findAccount(tenant, target.account_id), target);
  } catch (error) {
    return { takenAt: deps.clock.now(), metrics: {}, unsupported: [], errors: [asFailure(error)], retryable: false };
  }
}

/** A read cut down to the asked metrics (all of it when none were asked). */
function narrow(read: TargetRead, asked: MetricName[] | null, offered: readonly MetricName[]): TargetRead {
  if (!asked) return read;
  return {
    ...read,
    metrics: Object.fromEntries(asked.flatMap((m) => (read.metrics[m] === undefined ? [] : [[m, read.metrics[m]]]))),
    // This platform (or this kind of post) has no such metric.
    unsupported: asked.filter((m) => !offered.includes(m) || read.unsupported.includes(m)),
    errors: read.errors.filter((e) => e.metric === null || asked.some((m) => m === e.metric)),
  };
}

function present(target: PostTargetRow, read: TargetRead, source: 'snapshot' | 'live', stage: string | null): TargetInsightsView {
  const failed = read.errors.some((e) => e.metric === null);
  return {
    targetId: target.id,
    accountId: target.account_id,
    platform: target.platform,
    platformPostId: target.platform_post_id ?? '',
    publishedAt: iso(target.published_at === null ? null : Number(target.published_at)),
    takenAt: failed ? null : iso(read.takenAt),
    source,
    stage,
    metrics: read.metrics,
    unsupported: read.unsupported,
    errors: read.errors,
  };
}
