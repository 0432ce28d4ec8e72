// POST /posts 429 `rate_limited` (DESIGN §2 Posts): a publishNow target whose account has no
// posts left in its platform's publishing window (instagram content_publishing_limit, threads
// threads_publishing_limit, or a limit the service counts itself: x's X_DAILY_POST_LIMIT) refuses the
// whole post before anything is stored.
//
// The window is read through the platform's PublishingLimitReader, but not on every request: a
// reading is kept WINDOW_CACHE_MS per account in this process, concurrent requests share one
// read, and each post accepted while a reading is cached takes one post off what it left
// (`reserved`), so a burst cannot run past the window on one old reading. A reading that fails
// (platform down, token dead …) lets the post through: delivery meets the same failure and
// handles it (retries, needs_reconnect), and a quota check must not make posting less available
// than the platform itself. The platform still refuses a publish past its limit; this check only
// answers early what delivery would otherwise learn later.
import type { Store } from '../../db/database.ts';
import type { AccountRow } from '../../db/schema.ts';
import { apiError } from '../../http/errors.ts';
import type { AppDeps } from '../../deps.ts';
import type { PublishingLimit } from '../../platforms/types.ts';
import { countedPublishingLimit } from '../accounts/counted-limit.ts';
import { credentialsOf } from '../accounts/credentials.ts';

/** How long one reading of an account's window is trusted. */
export const WINDOW_CACHE_MS = 30_000;

interface Reading {
  readAt: number;
  limit: Promise<PublishingLimit | null>;
  /** Posts accepted for the account since this reading was taken. */
  reserved: number;
}

const readings = new WeakMap<Store, Map<string, Reading>>();

export type WindowDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>;

/** Posts taken off cached readings by one create; given back if the create fails. */
export interface Reservation {
  release(): void;
}

const NOTHING: Reservation = { release() {} };

function cacheOf(store: Store): Map<string, Reading> {
  let cache = readings.get(store);
  if (!cache) {
    cache = new Map();
    readings.set(store, cache);
  }
  return cache;
}

function reading(deps: WindowDeps, row: AccountRow, now: number): Reading {
  const cache = cacheOf(deps.store);
  const cached = cache.get(row.id);
  if (cached && now - cached.readAt < WINDOW_CACHE_MS) return cached;
  const adapter = deps.platforms.of(row.platform);
  const reader = adapter?.limits;
  const counted = adapter?.countedLimit;
  const limit = counted
    ? countedPublishingLimit(deps.store.db, row.id, counted, now)
    : reader
      ? reader.publishingLimit(credentialsOf(row, deps.sealer))
      : Promise.resolve(null);
  const fresh: Reading = { readAt: now, reserved: 0, limit: limit.catch(() => null) };
  if (cache.size > 10_000) for (const [id, r] of cache) if (now - r.readAt >= WINDOW_CACHE_MS) cache.delete(id);
  cache.set(row.id, fresh);
  return fresh;
}

/**
 * Checks the publishing window of every target account that has one (active accounts only: a
 * needs_reconnect account fails at delivery, as DESIGN says) and reserves one post on each.
 * Throws 429 rate_limited, reserving nothing, when one has no post left.
 */
export async function reservePublishingWindows(deps: WindowDeps, targets: Array<{ account: AccountRow }>): Promise<Reservation> {
  const rows = targets.map((t) => t.account).filter((row) => {
    const adapter = deps.platforms.of(row.platform);
    return row.status === 'active' && (adapter?.limits !== undefined || adapter?.countedLimit !== undefined);
  });
  if (!rows.length) return NOTHING;
  const now = deps.clock.now();
  const checked = await Promise.all(
    rows.map(async (row) => {
      const taken = reading(deps, row, now);
      return { row, reading: taken, limit: await taken.limit };
    }),
  );
  // From here to the reservations nothing awaits, so concurrent requests cannot both take the last post.
  // A reading without a total (allowed 0: no `config` in the answer) says nothing; it is let through.
  const full = checked.find(({ reading, limit }) => limit !== null && limit.allowed > 0 && limit.allowed - limit.used - reading.reserved <= 0);
  if (full) {
    const { row, limit, reading: r } = full;
    const name = row.username ?? row.display_name ?? row.id;
    const taken = (limit?.used ?? 0) + r.reserved;
    throw apiError(
      'rate_limited',
      `The ${row.platform} account ${name} (${row.id}) has no posts left in its publishing window: ${taken} of ${limit?.allowed ?? 0} in the last ${limit?.windowHours ?? 24} hours, counting posts accepted and not yet published`,
    );
  }
  const taken = checked.map(({ reading }) => reading);
  for (const r of taken) r.reserved++;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      for (const r of taken) r.reserved = Math.max(0, r.reserved - 1);
    },
  };
}
