// An account's publishing limit, for the API and the dashboard: counted by the service where the
// adapter declares one it counts (x with X_DAILY_POST_LIMIT), else read from the platform
// (instagram, threads); null where the platform has none.
import type { AppDeps } from '../../deps.ts';
import type { AccountRow } from '../../db/schema.ts';
import type { PublishingLimit } from '../../platforms/types.ts';
import { countedPublishingLimit } from './counted-limit.ts';
import { callPlatform } from './platform-call.ts';

export function publishingLimitOf(deps: Pick<AppDeps, 'platforms' | 'store' | 'clock' | 'sealer'>, row: AccountRow): Promise<PublishingLimit> | null {
  const adapter = deps.platforms.of(row.platform);
  if (adapter?.countedLimit) return countedPublishingLimit(deps.store.db, row.id, adapter.countedLimit, deps.clock.now());
  const limits = adapter?.limits;
  return limits ? callPlatform(deps, row, (credentials) => limits.publishingLimit(credentials)) : null;
}
