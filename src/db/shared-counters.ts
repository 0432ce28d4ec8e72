// The store's SharedCounters (platforms/counters.ts): one row per counter, taken by a conditional
// update, so two nodes taking the last units at once cannot both get them.
import { sql, type Kysely } from 'kysely';
import type { SharedCounters } from '../platforms/counters.ts';
import type { Database } from './schema.ts';

export function storeCounters(db: Kysely<Database>): SharedCounters {
  /** Makes the counter's row if its window has none yet; a new window drops the rows whose windows ended. */
  const open = async (key: string, now: number, expiresAt: number) => {
    const stale = await db.selectFrom('shared_counters').select('expires_at').where('key', '=', key).executeTakeFirst();
    if (stale && stale.expires_at > now) return;
    if (stale) await db.deleteFrom('shared_counters').where('expires_at', '<=', now).execute();
    await db.insertInto('shared_counters').values({ key, used: 0, expires_at: expiresAt }).onConflict((oc) => oc.column('key').doNothing()).execute();
  };
  return {
    async take(key, amount, limit, { now, expiresAt }) {
      const add = async () => {
        const row = await db
          .updateTable('shared_counters')
          .set({ used: sql<number>`used + ${amount}` })
          .where('key', '=', key)
          .where('expires_at', '>', now)
          .where(sql<boolean>`used + ${amount} <= ${limit}`)
          .returning('used')
          .executeTakeFirst();
        return row ? row.used : null;
      };
      // One statement while the window's row exists; the row is made (or renewed) only when it did not take.
      const taken = await add();
      if (taken !== null) return taken;
      await open(key, now, expiresAt);
      return add();
    },
    async giveBack(key, amount) {
      await db.updateTable('shared_counters').set({ used: sql<number>`case when used > ${amount} then used - ${amount} else 0 end` }).where('key', '=', key).execute();
    },
    async raise(key, value, { now, expiresAt }) {
      await open(key, now, expiresAt);
      await db.updateTable('shared_counters').set({ used: value }).where('key', '=', key).where('used', '<', value).execute();
    },
    async read(key) {
      const row = await db.selectFrom('shared_counters').select(['used']).where('key', '=', key).executeTakeFirst();
      return row?.used ?? 0;
    },
  };
}
