// Writes that must land together, in as few round trips as the store allows.
// PostgreSQL: one statement of data-modifying CTEs, atomic by itself, so no BEGIN and COMMIT
// either: one round trip instead of one per write plus two. SQLite has no data-modifying CTEs;
// there they run in turn inside the caller's transaction (or one of their own), where its group
// commit already makes each cheap.
import { sql, type Expression, type Kysely, type OperationNodeSource } from 'kysely';
import type { Store } from './database.ts';
import type { Database } from './schema.ts';

/** One write (an insert, update or delete builder) made on the given handle. */
export type Write = (db: Kysely<Database>) => OperationNodeSource & { execute(): Promise<unknown> };

export interface Together {
  writes: Write[];
  /** PostgreSQL: NOTIFY on this channel once the statement commits (and only if it does). */
  notify?: string;
}

export async function writeTogether(db: Kysely<Database>, store: Pick<Store, 'caps'>, { writes, notify }: Together): Promise<void> {
  if (store.caps.writableCte && writes.length > 0) {
    // The final select reads no CTE: PostgreSQL runs every data-modifying CTE exactly once anyway.
    let query = db.with('w0', () => asCte(writes[0], db));
    for (const [i, write] of writes.entries()) if (i > 0) query = query.with(`w${i}` as 'w0', () => asCte(write, db));
    await query.selectNoFrom((notify === undefined ? sql<number>`1` : sql<number>`pg_notify(${notify}, '')`).as('done')).execute();
    return;
  }
  const run = async (trx: Kysely<Database>) => {
    for (const write of writes) await write(trx).execute();
  };
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}

/** A write as the body of a CTE (its rows are never read). */
export function asCte(write: Write | undefined, db: Kysely<Database>): Expression<Record<string, unknown>> {
  if (!write) throw new Error('no write');
  const node = write(db).toOperationNode();
  return { expressionType: undefined, toOperationNode: () => node };
}
