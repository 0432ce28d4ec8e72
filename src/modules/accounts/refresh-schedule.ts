// When a token is refreshed: ahead of its expiry by a fifth of its remaining life, at least five
// minutes and at most seven days ahead (Instagram and Threads tokens may be refreshed only once
// they are a day old, which a 60-day token is long before its last week).
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { Type } from 'typebox';
import { jobKind } from '../../jobs/catalog.ts';
import { enqueue } from '../../jobs/queue.ts';

export const accountRefresh = jobKind(
  'account.refresh',
  Type.Object({
    accountId: Type.String(),
    /** The token_expires_at this job refreshes; a job for an older token finds it changed and stops. */
    expiresAt: Type.Number(),
  }),
  { maxAttempts: 6 },
);

const MIN_LEAD_MS = 5 * 60_000;
const MAX_LEAD_MS = 7 * 86_400_000;

export function refreshAt(expiresAt: number, now: number): number {
  const lead = Math.min(MAX_LEAD_MS, Math.max(MIN_LEAD_MS, Math.floor((expiresAt - now) / 5)));
  return Math.max(now, expiresAt - lead);
}

/** Queues the refresh of an account's current token (one job per account and token). */
export async function scheduleRefresh(db: Kysely<Database>, store: Pick<Store, 'caps'>, now: number, accountId: string, expiresAt: number): Promise<void> {
  await enqueue(db, store, now, accountRefresh, { accountId, expiresAt }, {
    runAt: refreshAt(expiresAt, now),
    dedupeKey: `account.refresh:${accountId}:${expiresAt}`,
  });
}
