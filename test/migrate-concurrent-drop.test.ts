// A process starting (and so migrating) on PostgreSQL while another session drops a schema of
// its own must not fail. Kysely's stock introspector read every schema on the server by name and
// failed with `schema "…" does not exist` when one vanished under it; the test suites, each in a
// schema it drops at the end, made worker starts in the crash tests fail now and then.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { migrateToLatest, openStore } from '../src/db/database.ts';
import { createTestDatabase, skipReason } from './harness/databases.ts';
import { PG_URL } from './harness/services.ts';

describe('migrations while other schemas are dropped [postgres]', { skip: skipReason('postgres') }, () => {
  test('fresh schemas migrate while another session creates and drops schemas', async () => {
    let churning = true;
    const churn = async (lane: number) => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        for (let i = 0; churning; i++) {
          const name = `t_churn_${process.pid}_${lane}_${i}`;
          await client.query(`CREATE SCHEMA ${name}`);
          await client.query(`CREATE TABLE ${name}.a (id serial primary key, b text, c int)`);
          await client.query(`DROP SCHEMA ${name} CASCADE`);
        }
      } finally {
        await client.end();
      }
    };
    const churners = [churn(1), churn(2)];
    const failures: string[] = [];
    try {
      for (let run = 0; run < 12; run++) {
        const database = await createTestDatabase('postgres');
        const store = openStore({ kind: 'postgres', url: database.url });
        try {
          await migrateToLatest(store);
          const tables = await store.db.introspection.getTables();
          assert.ok(tables.some((table) => table.name === 'jobs'), 'the migrated schema has its tables');
          assert.ok(tables.every((table) => !table.name.startsWith('kysely_')), 'bookkeeping tables are hidden unless asked for');
        } catch (error) {
          failures.push(String(error));
        } finally {
          await store.close();
          await database.drop();
        }
      }
    } finally {
      churning = false;
      await Promise.all(churners);
    }
    assert.deepEqual(failures, []);
  });
});
