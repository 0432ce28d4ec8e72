// Counters every node shares (platforms/counters.ts, db/shared-counters.ts): two store handles on
// one database stand for two nodes. Takes racing for the last units never pass the limit, a window
// that ended starts again at zero, and YouTube's daily quota is one budget for every node: an
// upload counted by one node is refused by the other before any call, and a day one node found
// spent is spent for the other.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../src/config.ts';
import { migrateToLatest, openStore, type Store } from '../src/db/database.ts';
import { storeCounters } from '../src/db/shared-counters.ts';
import { PlatformError } from '../src/platforms/errors.ts';
import { QuotaMeter, untilPacificMidnight } from '../src/platforms/youtube/api.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';

const settings = { dailyUploads: 2, dailyUnits: 100, uploadUnits: 1, audited: false };

for (const dialect of DIALECTS) {
  describe(`shared counters [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase;
    let one: Store;
    let two: Store;

    before(async () => {
      database = await createTestDatabase(dialect);
      const target = parseConfig({ DATABASE_URL: database.url, DATA_DIR: database.dataDir }).database;
      one = openStore(target);
      await migrateToLatest(one);
      two = openStore(target);
    });
    after(async () => {
      await one.close();
      await two.close();
      await database.drop();
    });

    test('takes from two nodes at once never pass the limit; giving back and raising count for both', async () => {
      const [a, b] = [storeCounters(one.db), storeCounters(two.db)];
      const window = { now: Date.now(), expiresAt: Date.now() + 60_000 };
      const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take('race', 3, 50, window)));
      const granted = takes.filter((n) => n !== null);
      assert.equal(granted.length, 16, '16 takes of 3 fit in 50');
      assert.equal(await a.read('race'), 48);
      assert.equal(await b.take('race', 3, 50, window), null);
      await a.giveBack('race', 3);
      assert.equal(await b.take('race', 3, 50, window), 48);
      await b.raise('race', 50, window);
      assert.equal(await a.read('race'), 50);
    });

    test('a counter whose window ended starts again at zero, and the ended rows are dropped', async () => {
      const counters = storeCounters(one.db);
      const now = Date.now();
      assert.equal(await counters.take('window', 5, 5, { now, expiresAt: now + 1000 }), 5);
      assert.equal(await counters.take('window', 1, 5, { now, expiresAt: now + 1000 }), null);
      assert.equal(await counters.take('window', 1, 5, { now: now + 2000, expiresAt: now + 60_000 }), 1);
      const rows = await one.db.selectFrom('shared_counters').selectAll().where('key', '=', 'window').execute();
      assert.deepEqual(rows.map((r) => [r.used, r.expires_at]), [[1, now + 60_000]]);
    });

    test("YouTube's daily quota is the project's: each node refuses what the other spent, before calling", async () => {
      const now = Date.UTC(2026, 10, 29, 12);
      const [a, b] = [new QuotaMeter(settings, storeCounters(one.db)), new QuotaMeter(settings, storeCounters(two.db))];
      await a.chargeUpload(now);
      await b.chargeUpload(now);
      assert.equal(await a.uploads(now), 2);
      await assert.rejects(a.chargeUpload(now), (error: unknown) => error instanceof PlatformError && error.kind === 'rate_limited' && error.details.retryAfterMs === untilPacificMidnight(now));
      await a.charge(60, now);
      await assert.rejects(b.charge(41, now), PlatformError);
      await b.charge(40, now);
      // The next Pacific day is a new budget; YouTube's quotaExceeded seen by one node spends it for both.
      const tomorrow = now + untilPacificMidnight(now) + 1000;
      await b.charge(1, tomorrow);
      await b.spend(tomorrow);
      await assert.rejects(a.charge(1, tomorrow), PlatformError);
      await assert.rejects(a.chargeUpload(tomorrow), PlatformError);
      assert.equal(await a.uploads(tomorrow), 2);
    });
  });
}
