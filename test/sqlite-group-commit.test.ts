// The SQLite driver's group commit (src/db/sqlite-group-commit.ts): many callers share one
// commit, yet each returns only once its work is committed, a failing transaction undoes only
// itself, and other processes still get their turn at the write lock.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openStore, type Store } from '../src/db/database.ts';

/** What another connection (not this process's shared one) sees in the file: only committed rows. */
function committedIds(file: string): string[] {
  const reader = new DatabaseSync(file, { readOnly: true });
  try {
    return (reader.prepare('select id from t order by id').all() as Array<{ id: string }>).map((row) => row.id);
  } finally {
    reader.close();
  }
}

const insert = (db: Kysely<unknown>, id: string) => sql`insert into t (id) values (${id})`.execute(db);

describe('SQLite group commit', () => {
  let dir: string;
  let file: string;
  let store: Store;
  let db: Kysely<unknown>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'socialapi-group-commit-'));
    file = join(dir, 'test.db');
    store = openStore({ kind: 'sqlite', file });
    db = store.db as unknown as Kysely<unknown>;
    await sql`create table t (id text primary key)`.execute(db);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const reset = () => sql`delete from t`.execute(db);

  test('every caller returns only once its write is committed, plain statements and transactions alike', async () => {
    await reset();
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const id = `row-${String(i).padStart(3, '0')}`;
        if (i % 2) await insert(db, id);
        else await db.transaction().execute((trx) => insert(trx, id));
        assert.ok(committedIds(file).includes(id), `${id} was not committed when its call returned`);
      }),
    );
    assert.equal(committedIds(file).length, 100);
  });

  test('a transaction that fails undoes only its own writes; the others of its group commit', async () => {
    await reset();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await insert(trx, `a-${i}`);
          await insert(trx, `b-${i}`);
          if (i === 7) throw new Error('this one fails');
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array.from({ length: 20 }, (_, i) => (i === 7 ? 'rejected' : 'fulfilled')),
    );
    const ids = committedIds(file);
    assert.equal(ids.length, 38);
    assert.ok(!ids.includes('a-7') && !ids.includes('b-7'));
  });

  test('a statement that breaks a constraint fails alone, inside or outside a transaction', async () => {
    await reset();
    await insert(db, 'taken');
    const results = await Promise.allSettled([insert(db, 'x1'), insert(db, 'taken'), db.transaction().execute((trx) => insert(trx, 'taken')), insert(db, 'x2')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(committedIds(file), ['taken', 'x1', 'x2']);
  });

  test('a second store on the same file in this process shares the connection instead of deadlocking', async () => {
    await reset();
    const other = openStore({ kind: 'sqlite', file });
    try {
      const otherDb = other.db as unknown as Kysely<unknown>;
      await Promise.all([
        db.transaction().execute(async (trx) => {
          await insert(trx, 'one-a');
          await new Promise((resolve) => setTimeout(resolve, 20));
          await insert(trx, 'one-b');
        }),
        insert(otherDb, 'two'),
      ]);
    } finally {
      await other.close();
    }
    assert.deepEqual(committedIds(file), ['one-a', 'one-b', 'two']);
    await insert(db, 'after'); // the first store still works once the second is closed
  });

  test('another process writes between groups while this one writes without pause', async () => {
    await reset();
    let writing = true;
    let n = 0;
    const load = (async () => {
      while (writing) await Promise.all(Array.from({ length: 16 }, () => insert(db, `load-${n++}`)));
    })();
    try {
      const script = `
        const { DatabaseSync } = require('node:sqlite');
        const db = new DatabaseSync(${JSON.stringify(file)});
        db.exec('PRAGMA busy_timeout = 10000');
        for (let i = 0; i < 20; i++) db.prepare('insert into t (id) values (?)').run('other-' + i);
        db.close();`;
      const code = await new Promise<number | null>((resolve) => spawn(process.execPath, ['-e', script], { stdio: 'inherit' }).once('exit', resolve));
      assert.equal(code, 0, 'the other process could not write');
    } finally {
      writing = false;
      await load;
    }
    assert.equal(committedIds(file).filter((id) => id.startsWith('other-')).length, 20);
  });

  test('the WAL is copied back into the file by the checkpointer thread, not inside a commit', async () => {
    await reset();
    // The thread turns the connection's own checkpoints off once it has started, which under
    // load can be after the suite's first tests.
    const automatic = async () => (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db)).rows[0]?.wal_autocheckpoint;
    const deadlineReady = Date.now() + 10_000;
    while ((await automatic()) !== 0 && Date.now() < deadlineReady) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await automatic(), 0, 'the connection still checkpoints inside its commits');
    const before = statSync(file).size;
    // About 2,000 pages of rows: more than one automatic checkpoint's worth.
    const wide = 'x'.repeat(4000);
    for (let i = 0; i < 20; i++) await Promise.all(Array.from({ length: 100 }, (_, j) => insert(db, `wide-${i}-${j}-${wide}`)));
    const deadline = Date.now() + 5000;
    while (statSync(file).size < before + 4_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(statSync(file).size >= before + 4_000_000, `the database file did not grow (${before} → ${statSync(file).size} bytes): nothing was checkpointed`);
  });
});
