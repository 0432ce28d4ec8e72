// A publishing limit counted by the service (CountedPublishingLimit, e.g. x with
// X_DAILY_POST_LIMIT): the account's targets published in the rolling window, from post_targets.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CountedPublishingLimit, PublishingLimit } from '../../platforms/types.ts';

export async function countedPublishingLimit(db: Kysely<Database>, accountId: string, limit: CountedPublishingLimit, now: number): Promise<PublishingLimit> {
  const row = await db
    .selectFrom('post_targets')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('used'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'published')
    .where('published_at', '>=', now - limit.windowHours * 3_600_000)
    .executeTakeFirst();
  return { used: Number(row?.used ?? 0), allowed: limit.allowed, windowHours: limit.windowHours };
}
