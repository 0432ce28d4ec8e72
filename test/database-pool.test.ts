// DATABASE_POOL_MAX: how many PostgreSQL connections one process opens at most. Read with
// DATABASE_URL (a SQLite store has one connection and no pool), checked like every integer
// setting, and honoured by the pool under load.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { parseConfig } from '../src/config.ts';
import { openStore, type Store } from '../src/db/database.ts';
import { createTestDatabase, skipReason, type TestDatabase } from './harness/databases.ts';

const PG = 'postgres://postgres@127.0.0.1:5432/test';

describe('DATABASE_POOL_MAX', () => {
  test('10 unless set; an integer from 1 to 1000; no pool for SQLite', () => {
    assert.deepEqual(parseConfig({ DATABASE_URL: PG }).database, { kind: 'postgres', url: PG, poolMax: 10 });
    assert.deepEqual(parseConfig({ DATABASE_URL: PG, DATABASE_POOL_MAX: '4' }).database, { kind: 'postgres', url: PG, poolMax: 4 });
    for (const bad of ['0', '1001', '2.5', 'many']) assert.throws(() => parseConfig({ DATABASE_URL: PG, DATABASE_POOL_MAX: bad }), /DATABASE_POOL_MAX must be an integer from 1 to 1000/);
    assert.equal(parseConfig({ DATABASE_URL: 'sqlite:/tmp/x.db', DATABASE_POOL_MAX: '4' }).database.kind, 'sqlite');
  });

  describe('on PostgreSQL', { skip: skipReason('postgres') }, () => {
    let database: TestDatabase;
    let store: Store;
    before(async () => {
      database = await createTestDatabase('postgres');
      const target = parseConfig({ DATABASE_URL: database.url, DATABASE_POOL_MAX: '2' }).database;
      store = openStore(target);
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    test('eight queries at once share two connections: the others wait their turn', async () => {
      let most = 0;
      const watch = setInterval(() => (most = Math.max(most, store.pool?.totalCount ?? 0)), 5);
      try {
        await Promise.all(Array.from({ length: 8 }, () => sql`select pg_sleep(0.05)`.execute(store.db)));
      } finally {
        clearInterval(watch);
      }
      assert.equal(most, 2);
    });
  });
});
