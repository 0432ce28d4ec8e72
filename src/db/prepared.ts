// Queries on hot paths, built and compiled by Kysely once per database (a handle and the
// transactions opened on it share one compiled query) instead of on every call. Building and compiling a query costs more than SQLite takes to run a simple one (about
// 10-25 µs against 3-8 µs, measured on `npm run bench`), so a route that runs on every request
// binds its values into a query compiled once.
//
// The builder gets stand-ins for its arguments and must use each of them as a plain value (a
// `where` operand, an inserted value): it must not branch on them, since it runs only once.
// Each shape of a query (with or without an optional filter) is a query of its own.
import type { Compilable, CompiledQuery, DialectAdapter, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.ts';

/** Stand-ins are unique strings no caller would pass; found again among the compiled parameters. */
const STAND_IN = '\u0000socialapi-argument-';

type Slot = { argument: number } | { constant: unknown };

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  slots: Slot[];
}

export interface PreparedQuery<Args extends readonly unknown[], Row> {
  execute(db: Kysely<Database>, ...args: Args): Promise<QueryResult<Row>>;
}

export function prepare<Args extends readonly unknown[], Row>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): PreparedQuery<Args, Row> {
  // Keyed by the dialect adapter, which a Kysely instance hands on to every transaction it opens
  // (each transaction is a new handle): a job's queries run inside a new transaction every time.
  // The service adds no plugins, which would change what a query compiles to.
  const compiled = new WeakMap<DialectAdapter, Compiled<Row>>();
  const compile = (db: Kysely<Database>, arity: number): Compiled<Row> => {
    const standIns = Array.from({ length: arity }, (_, i) => `${STAND_IN}${i}`);
    const query = build(db, ...(standIns as unknown as Args)).compile();
    const slots = query.parameters.map((value): Slot => {
      const argument = typeof value === 'string' ? standIns.indexOf(value) : -1;
      return argument >= 0 ? { argument } : { constant: value };
    });
    const used = new Set(slots.flatMap((slot) => ('argument' in slot ? [slot.argument] : [])));
    if (used.size !== arity) throw new Error('a prepared query must use each of its arguments as a plain value');
    return { query, slots };
  };
  return {
    execute(db, ...args) {
      const adapter = db.getExecutor().adapter;
      let entry = compiled.get(adapter);
      if (!entry) {
        entry = compile(db, args.length);
        compiled.set(adapter, entry);
      }
      const parameters = entry.slots.map((slot) => ('argument' in slot ? args[slot.argument] : slot.constant));
      return db.executeQuery<Row>({ ...entry.query, parameters });
    },
  };
}
