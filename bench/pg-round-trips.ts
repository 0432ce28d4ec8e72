// Bench only: counts the server's PostgreSQL round trips. Loaded into the server process with
// `--import` (NODE_OPTIONS); every pg Client.query call is one round trip (pg sends one query at a
// time and waits for its answer). The counts, by the statement's first word (begin, commit,
// select, insert, update, delete, with …), are written to BENCH_PG_ROUND_TRIPS as JSON a few
// times a second, so the bench can read them before and after a phase.
import { writeFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_PG_ROUND_TRIPS;

export type RoundTrips = Record<string, number>;

if (file) {
  const counts: RoundTrips = {};
  let changed = true;
  const query: (...args: unknown[]) => unknown = Reflect.get(pg.Client.prototype, 'query');
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'text' in first ? String(first.text) : '';
    const word = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? 'other';
    counts[word] = (counts[word] ?? 0) + 1;
    changed = true;
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const flush = () => {
    if (!changed) return;
    changed = false;
    writeFileSync(file, JSON.stringify(counts));
  };
  setInterval(flush, 100).unref();
  process.on('exit', flush);
}
