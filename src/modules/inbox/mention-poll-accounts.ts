// The statements of the mention poll (mention-poll-job.ts) on mention_polls (migration 0031):
// the active accounts of the polled platforms (POLLED_MENTION_PLATFORMS) never polled, or due.
// Claiming an account moves its poll time past the run's time limit, so another run (another
// worker) skips it, and a run that dies leaves it due again once that time passes. The claim is
// one conditional upsert per account: of two runs claiming the same account, only the one whose
// write found it still due gets a row back.
import { sql, type Kysely } from 'kysely';
import type { AccountRow, Database } from '../../db/schema.ts';
import { POLLED_MENTION_PLATFORMS } from '../../platforms/registry.ts';

const POLLED = POLLED_MENTION_PLATFORMS.map((name) => sql.lit(name));

export interface ClaimedAccount {
  account: AccountRow;
  /** Mentions made before this are not announced. */
  since: number;
  /** Where the read starts: the platform's mark of the newest mention the last poll read; null before the first. */
  mark: string | null;
}

/** Claims up to `limit` due accounts until `claimUntil`. */
export async function claimDueAccounts(db: Kysely<Database>, now: number, limit: number, claimUntil: number): Promise<ClaimedAccount[]> {
  if (!POLLED.length) return [];
  const due = await db
    .selectFrom('accounts')
    .leftJoin('mention_polls', 'mention_polls.account_id', 'accounts.id')
    .selectAll('accounts')
    .where('accounts.platform', 'in', POLLED)
    .where('accounts.status', '=', 'active')
    .where((eb) => eb.or([eb('mention_polls.poll_at', 'is', null), eb('mention_polls.poll_at', '<=', now)]))
    .orderBy(sql`coalesce(${sql.ref('mention_polls.poll_at')}, 0)`)
    .limit(limit)
    .execute();
  const claimed: ClaimedAccount[] = [];
  for (const account of due) {
    const row = await db
      .insertInto('mention_polls')
      .values({ account_id: account.id, poll_at: claimUntil, since: account.connected_at })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ poll_at: claimUntil }).where('mention_polls.poll_at', '<=', now))
      .returning(['since', 'mark'])
      .executeTakeFirst();
    if (row) claimed.push({ account, since: Number(row.since), mark: row.mark });
  }
  return claimed;
}

/** When the account is due next and, after a read, where the next read starts. */
export async function setNextMentionPoll(db: Kysely<Database>, accountId: string, at: number, mark?: string | null): Promise<void> {
  await db
    .updateTable('mention_polls')
    .set({ poll_at: at, ...(mark !== undefined ? { mark } : {}) })
    .where('account_id', '=', accountId)
    .execute();
}
