// Migration 0011 (direct messages) landed after 0012 and later ones had shipped: a store that
// already ran those must still take it at the next start, on both stores, instead of refusing to
// start with Kysely's "corrupted migrations".
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrateToLatest, openStore } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { createTestDatabase, DIALECTS, skipReason } from './harness/databases.ts';

for (const dialect of DIALECTS) {
  describe(`migration 0011 after later ones [${dialect}]`, { skip: skipReason(dialect) }, () => {
    test('a store migrated without 0011 takes it at the next start', async () => {
      const database = await createTestDatabase(dialect);
      const store = openStore(dialect === 'postgres' ? { kind: 'postgres', url: database.url } : { kind: 'sqlite', file: database.url.replace(/^sqlite:/, '') });
      try {
        const schema = dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]?.schema : undefined;
        // What such a store ran: the migrations shipped before 0011 landed (0020 on builds on it).
        const shipped = (name: string) => name < '0020';
        const without = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== '0011-direct-messages' && shipped(name)));
        const earlier = await new Migrator({ db: store.db, provider: { getMigrations: () => Promise.resolve(without) }, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
        assert.equal(earlier.error, undefined);
        assert.deepEqual(await migrateToLatest(store), ['0011-direct-messages', ...Object.keys(migrations).filter((name) => !shipped(name)).sort()]);
        const tables = (await store.db.introspection.getTables()).map((t) => t.name);
        for (const table of ['conversations', 'messages', 'conversation_syncs']) assert.ok(tables.includes(table), table);
      } finally {
        await store.close();
        await database.drop();
      }
    });
  });
}
