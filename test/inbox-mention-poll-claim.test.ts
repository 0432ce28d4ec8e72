// The mention poll's claim (src/modules/inbox/mention-poll-accounts.ts; migration 0031): two store
// handles on one database stand for two workers. Of two runs claiming in the same tick, each
// account goes to one; a claimed account is not due until its time passes; only active accounts of
// the platforms whose definition says pollMentions are claimed; `since` is the account's first
// connection and stays there when it reconnects; the row goes with the account.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../src/config.ts';
import { migrateToLatest, openStore, type Store } from '../src/db/database.ts';
import { newId } from '../src/lib/ids.ts';
import { claimDueAccounts, setNextMentionPoll } from '../src/modules/inbox/mention-poll-accounts.ts';
import { POLLED_MENTION_PLATFORMS } from '../src/platforms/registry.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';

const T0 = Date.UTC(2031, 0, 6, 9);

for (const dialect of DIALECTS) {
  describe(`mention poll claims [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase;
    let one: Store;
    let two: Store;
    let org: string;

    before(async () => {
      database = await createTestDatabase(dialect);
      const target = parseConfig({ DATABASE_URL: database.url, DATA_DIR: database.dataDir }).database;
      one = openStore(target);
      await migrateToLatest(one);
      two = openStore(target);
      org = newId('organization');
      await one.db.insertInto('organizations').values({ id: org, name: 'claims', approval_required: 0, created_at: T0 }).execute();
    });
    after(async () => {
      await one.close();
      await two.close();
      await database.drop();
    });

    const addAccount = async (platform: string, status: 'active' | 'needs_reconnect' = 'active') => {
      const id = newId('account');
      await one.db
        .insertInto('accounts')
        .values({
          id, organization_id: org, platform, platform_user_id: id, username: null, display_name: null, avatar_url: null, external_id: null, status, approval_required: 0,
          access_token_enc: null, refresh_token_enc: null, token_expires_at: null, scopes: '', metadata: '{}', connected_at: T0, updated_at: T0,
        })
        .execute();
      return id;
    };

    test('x and bluesky are the polled-mentions platforms; the others have mention webhooks or no mentions', () => {
      assert.deepEqual(POLLED_MENTION_PLATFORMS, ['x', 'bluesky']);
    });

    test('two runs in one tick split the due accounts; claimed ones wait; inactive and other platforms are never claimed', async () => {
      const ids = [];
      for (let i = 0; i < 6; i++) ids.push(await addAccount('bluesky'));
      const off = await addAccount('bluesky', 'needs_reconnect');
      const other = await addAccount('instagram');
      const now = T0 + 60_000;
      const [a, b] = await Promise.all([claimDueAccounts(one.db, now, 50, now + 600_000), claimDueAccounts(two.db, now, 50, now + 600_000)]);
      const claimed = [...a, ...b].map((c) => c.account.id);
      assert.deepEqual([...claimed].sort(), [...ids].sort(), 'each account once, by one of the runs');
      assert.ok(!claimed.includes(off) && !claimed.includes(other));
      assert.ok([...a, ...b].every((c) => c.since === T0));
      assert.deepEqual(await claimDueAccounts(one.db, now + 1000, 50, now + 600_000), [], 'held while claimed');
      await setNextMentionPoll(one.db, ids[0] ?? '', now + 300_000);
      assert.deepEqual((await claimDueAccounts(two.db, now + 300_000, 50, now + 900_000)).map((c) => c.account.id), [ids[0]]);
    });

    test('since stays the first connection after a reconnect; the row goes with the account', async () => {
      const id = await addAccount('bluesky');
      const now = T0 + 120_000;
      assert.equal((await claimDueAccounts(one.db, now, 50, now + 1)).find((c) => c.account.id === id)?.since, T0);
      await one.db.updateTable('accounts').set({ connected_at: T0 + 3_600_000 }).where('id', '=', id).execute();
      const again = await claimDueAccounts(one.db, now + 10, 50, now + 20);
      assert.equal(again.find((c) => c.account.id === id)?.since, T0);
      await one.db.deleteFrom('accounts').where('id', '=', id).execute();
      assert.equal(await one.db.selectFrom('mention_polls').select('account_id').where('account_id', '=', id).executeTakeFirst(), undefined);
    });
  });
}
