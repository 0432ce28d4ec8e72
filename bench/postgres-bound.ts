// The bound for POST /posts on PostgreSQL: the rows one create writes (a post, its 3 targets and
// its first job, with the job's NOTIFY) written by a bare `pg` loop in this process, as fast as
// PostgreSQL takes them: one statement per post (data-modifying CTEs, prepared once per
// connection), as many connections as the service's pool and as many in flight as autocannon
// keeps. No HTTP, no validation, no account read: what is left is the database's own cost, on
// the same machine at the same moment, so "our share" of it moves little with other load.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Sample } from './load.ts';

export interface BoundRows {
  organizationId: string;
  /** The accounts of the 3 targets: reddit, threads, facebook. */
  accounts: readonly [string, string, string];
}

/** The service's pool size (src/db/database.ts). */
export const SERVICE_POOL_SIZE = 10;

const TARGET_COLUMNS = '(id, post_id, organization_id, position, account_id, platform, input, options, warnings, status, attempts, next_attempt_at, released_next, progress, updated_at)';
const target = (n: number, position: number, platform: string) =>
  `($${n}, $1, $2, ${position}, $${n + 1}, '${platform}', '{}', '{}', '[]', 'pending', 0, ${position === 0 ? '$3' : 'null'}, 0, '{}', $3)`;

// $1 post id, $2 organization, $3 now, $4 content, $5/$6 … target id and account, $11 job id, $12 payload.
const STATEMENT = `with
  p as (insert into posts (id, organization_id, content, status, scheduled_for, approved_at, rejected_reason, api_key_id, created_at, updated_at)
        values ($1, $2, $4, 'queued', null, null, null, null, $3, $3)),
  t as (insert into post_targets ${TARGET_COLUMNS}
        values ${target(5, 0, 'reddit')}, ${target(7, 1, 'threads')}, ${target(9, 2, 'facebook')}),
  j as (insert into jobs (id, kind, payload, status, run_at, max_attempts, dedupe_key, lane, created_at, updated_at)
        values ($11, 'post.deliver', $12, 'pending', $3, 10, null, 'posts', $3, $3) returning id)
select pg_notify('socialapi_jobs', '') from j`;

const uniqueId = (prefix: string) => `${prefix}_bound${randomBytes(10).toString('hex')}`;

/** Writes posts for `seconds` with `inFlight` loops sharing SERVICE_POOL_SIZE connections. */
export async function measureBound(url: string, rows: BoundRows, inFlight: number, seconds: number): Promise<Sample> {
  const pool = new pg.Pool({ connectionString: url, max: SERVICE_POOL_SIZE });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() < until) {
          const now = Date.now();
          const postId = uniqueId('post');
          const targetId = uniqueId('target');
          const values = [postId, rows.organizationId, now, 'Benchmark post\nwith a body', targetId, rows.accounts[0], uniqueId('target'), rows.accounts[1], uniqueId('target'), rows.accounts[2], uniqueId('job'), JSON.stringify({ targetId, dueAt: now })];
          const sent = performance.now();
          try {
            await pool.query({ name: 'bound_post', text: STATEMENT, values });
            latencies.push(performance.now() - sent);
          } catch {
            errors++;
          }
        }
      }),
    );
  } finally {
    await pool.end();
  }
  const elapsed = (performance.now() - started) / 1000;
  return { seconds: elapsed, responses: latencies.length, non2xx: 0, errors, timeouts: 0, statusCodes: {}, latencies };
}
