// GET /metrics (issue 21, point 4), on both stores: the Prometheus text format read back by a
// small parser, after real traffic (answers 200, 404, 400), a post published to the sandbox by
// the worker after one platform 503, a webhook delivered to a real receiver after one refusal;
// the queue gauges seeing a scheduled post that came due; a `socialapi worker` process serving its
// own metrics on METRICS_PORT; METRICS_TOKEN; and nothing at /metrics when metrics are off.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../src/config.ts';
import { openStore } from '../src/db/database.ts';
import { systemClock, type Clock } from '../src/lib/clock.ts';
import { defineJob } from '../src/jobs/catalog.ts';
import { jobOutcomeObservers, timeJobRuns } from '../src/metrics/job-metrics.ts';
import { Metrics } from '../src/metrics/metrics.ts';
import { platformObserver } from '../src/metrics/platform-calls.ts';
import { createPlatforms } from '../src/platforms/registry.ts';
import { PLATFORMS } from '../src/platforms/registry.ts';
import { Type } from 'typebox';
import { insertJob, jobRow, openJobStore, startWorker } from './fixtures/jobs.ts';
import { startApp } from './harness/app.ts';
import type { Spawned } from './harness/cli.ts';
import { freePort } from './harness/connect.ts';
import { createTestDatabase, DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { httpClient } from './mcp-support.ts';
import { addAccount, createPost, getPost, json, settled, startPostsApp, startWorkerProcess, type PostsApp } from './posts-support.ts';

/** Real time plus an offset the test moves, so retries minutes away run at once. */
class ShiftClock implements Clock {
  offset = 0;
  constructor(offset = 0) {
    this.offset = offset;
  }
  now(): number {
    return Date.now() + this.offset;
  }
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Scrape {
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** The sum over every sample of `name` whose labels include `labels`. */
  sum(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads the Prometheus text exposition format (version 0.0.4): TYPE lines and samples. */
function parseExposition(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type?.[1] && type[2]) types.set(type[1], type[2]);
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    assert.ok(match?.[1] && match[3], `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) if (name !== undefined && value !== undefined) labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  const matching = (name: string, labels: Record<string, string>) => samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    types,
    samples,
    value(name, labels = {}) {
      const found = matching(name, labels);
      assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
      return found[0]?.value;
    },
    sum: (name, labels = {}) => matching(name, labels).reduce((total, s) => total + s.value, 0),
  };
}

const TOKEN = 'metrics-test-token';
const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });

async function scrapeAt(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(url, { headers: token ? auth(token) : {} });
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4; charset=utf-8$/);
  return parseExposition(await res.text());
}

for (const dialect of DIALECTS) {
  describe(`metrics [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let receiver: Receiver;
    const clock = new ShiftClock();
    const running: Spawned[] = [];

    before(async () => {
      t = await startPostsApp(dialect, { clock, env: { METRICS: '1', METRICS_TOKEN: TOKEN } });
      receiver = await new Receiver().start();
    });
    after(async () => {
      for (const process of running) await process.stop();
      await t.close();
      await receiver.stop();
    });

    const scrape = () => scrapeAt(`${t.url}/metrics`, TOKEN);

    test('/metrics asks for METRICS_TOKEN, and stays out of the API document and the MCP tools', async () => {
      for (const headers of [{}, auth('wrong'), { authorization: TOKEN }]) {
        const res = await t.request('/metrics', { headers });
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
        assert.equal(((await res.json()) as { error: { message: string } }).error.message, 'METRICS_TOKEN is required as a Bearer token');
      }
      const { key } = await t.tenant();
      const document = (await (await t.request('/api/v1/openapi.json', { key })).json()) as { paths: Record<string, unknown> };
      assert.ok(Object.keys(document.paths).length > 10);
      assert.ok(!Object.keys(document.paths).some((path) => path.includes('metrics')));
      const mcp = await httpClient(t, key);
      try {
        const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
        assert.ok(names.includes('list_accounts'));
        assert.ok(!names.some((name) => name.includes('metrics')), names.join(' '));
      } finally {
        await mcp.close();
      }
    });

    test('HTTP requests are counted by method, route pattern and status, with latency histograms', async () => {
      const { key } = await t.tenant();
      const before = await scrape();
      const count = (method: string, route: string, status: string) => before.value('socialapi_http_requests_total', { method, route, status }) ?? 0;
      const was = { ok: count('GET', '/api/v1/accounts', '200'), missing: count('GET', '/api/v1/posts/:id', '404'), unmatched: count('GET', 'unmatched', '404'), invalid: count('POST', '/api/v1/posts', '400') };
      for (let i = 0; i < 3; i++) assert.equal((await t.request('/api/v1/accounts', { key })).status, 200);
      assert.equal((await t.request('/api/v1/posts/post_nope', { key })).status, 404);
      assert.equal((await t.request('/no/such/page/12345', { key })).status, 404);
      assert.equal((await t.request('/api/v1/posts', { key, method: 'POST', headers: json, body: JSON.stringify({ content: 5 }) })).status, 400);

      const after = await scrape();
      assert.equal(after.types.get('socialapi_http_requests_total'), 'counter');
      assert.equal(after.types.get('socialapi_http_request_duration_seconds'), 'histogram');
      assert.equal(after.value('socialapi_http_requests_total', { method: 'GET', route: '/api/v1/accounts', status: '200' }), was.ok + 3);
      assert.equal(after.value('socialapi_http_requests_total', { method: 'GET', route: '/api/v1/posts/:id', status: '404' }), was.missing + 1);
      assert.equal(after.value('socialapi_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), was.unmatched + 1);
      assert.equal(after.value('socialapi_http_requests_total', { method: 'POST', route: '/api/v1/posts', status: '400' }), was.invalid + 1);
      // Routes are patterns: no raw URL, no id, and scrapes themselves are not counted.
      const routes = new Set(after.samples.filter((s) => s.name === 'socialapi_http_requests_total').map((s) => s.labels.route ?? ''));
      assert.ok(![...routes].some((route) => route.includes('post_nope') || route.includes('12345') || route === '/metrics'), [...routes].join(' '));
      const countOk = after.value('socialapi_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/accounts' }) ?? 0;
      assert.ok(countOk >= 3);
      assert.equal(after.value('socialapi_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/v1/accounts', le: '+Inf' }), countOk);
      assert.ok((after.value('socialapi_http_request_duration_seconds_sum', { method: 'GET', route: '/api/v1/accounts' }) ?? -1) >= 0);
      // The process and the store.
      assert.ok((after.value('socialapi_process_resident_memory_bytes') ?? 0) > 0);
      assert.equal(after.value('socialapi_store_info', { engine: dialect }), 1);
      assert.equal(after.value('socialapi_store_up'), 1);
      if (dialect === 'postgres') {
        assert.ok((after.value('socialapi_store_pool_connections', { state: 'idle' }) ?? -1) >= 0);
        assert.ok((after.value('socialapi_store_pool_connections', { state: 'in_use' }) ?? -1) >= 0);
        assert.equal(after.value('socialapi_store_pool_waiting'), 0);
      } else {
        assert.equal(after.value('socialapi_store_pool_waiting'), undefined);
      }
    });

    test('a post published after a platform 503, and its webhook delivered after one refusal: jobs, post targets, platform calls, deliveries', async () => {
      const { key, organizationId } = await t.tenant();
      const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events: ['post.published'] }) });
      assert.equal(hook.status, 201, await hook.clone().text());
      const before = await scrape();
      const sendsDone = { lane: 'webhooks', kind: 'webhook.send', outcome: 'completed' };
      const deliveriesDone = { lane: 'posts', kind: 'post.deliver', outcome: 'completed' };
      const growth = (s: Scrape, name: string, labels: Record<string, string>) => (s.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
      const account = await addAccount(t, organizationId, 'reddit');
      t.sandbox.faults.add({ host: 'oauth.reddit.com', path: '/api/submit', kind: 'server_error', status: 503, times: 1 });
      receiver.script.push({ status: 500 });

      const created = await createPost(t, key, { content: 'Counted\nin the metrics', publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const postId = created.body.post.id;
      // The 503 schedules a retry about 30 s away: move the clock there.
      const targetId = (await getPost(t, key, postId)).targets[0]?.id ?? '';
      const retry = await waitFor(async () => {
        const row = await t.runtime.deps.store.db.selectFrom('post_targets').select(['status', 'next_attempt_at']).where('id', '=', targetId).executeTakeFirstOrThrow();
        return row.status === 'pending' && row.next_attempt_at !== null && row.next_attempt_at > clock.now() ? row.next_attempt_at : null;
      }, 5000, 'the retry after the 503');
      // The attempt's job must have ended before the clock moves 30 s on: a job still running
      // then would look past its lease, and a second run of it would be counted too.
      await waitFor(async () => growth(await scrape(), 'socialapi_jobs_total', deliveriesDone) >= 1 || null, 5000, 'the first attempt to be counted');
      clock.offset += retry - clock.now() + 1;
      t.worker?.wake();
      assert.equal((await settled(t, key, postId)).status, 'published');
      // post.published: the receiver refuses the first attempt (retry in about 5 s), takes the second.
      await receiver.waitFor(1);
      const delivery = await waitFor(async () => {
        const row = await t.runtime.deps.store.db.selectFrom('webhook_deliveries').select(['status', 'next_attempt_at']).where('status', '=', 'pending').where('next_attempt_at', '>', clock.now()).executeTakeFirst();
        return row?.next_attempt_at ?? null;
      }, 5000, 'the webhook retry');
      clock.offset += delivery - clock.now() + 1;
      t.worker?.wake();
      await receiver.waitFor(2);

      // A job's outcome is counted once the worker has stored it, just after its handler's work.
      const after = await waitFor(async () => {
        const s = await scrape();
        return growth(s, 'socialapi_jobs_total', sendsDone) >= 2 && growth(s, 'socialapi_jobs_total', deliveriesDone) >= 2 ? s : null;
      }, 5000, 'the jobs to be counted');
      const grew = (name: string, labels: Record<string, string>) => growth(after, name, labels);

      assert.equal(after.types.get('socialapi_post_targets_total'), 'counter');
      assert.equal(grew('socialapi_post_targets_total', { platform: 'reddit', outcome: 'retrying' }), 1);
      assert.equal(grew('socialapi_post_targets_total', { platform: 'reddit', outcome: 'published' }), 1);
      assert.equal(grew('socialapi_post_targets_total', { platform: 'reddit', outcome: 'failed' }), 0);

      assert.equal(grew('socialapi_webhook_deliveries_total', { outcome: 'retrying' }), 1);
      assert.equal(grew('socialapi_webhook_deliveries_total', { outcome: 'delivered' }), 1);
      assert.equal(grew('socialapi_webhook_deliveries_total', { outcome: 'failed' }), 0);
      assert.ok((after.value('socialapi_webhook_delivery_duration_seconds_count') ?? 0) >= 2);

      // The platform's 503 by its answer and by the adapter's kind of error; the retry's calls ok.
      assert.equal(grew('socialapi_platform_requests_total', { platform: 'reddit', outcome: 'server_error' }), 1);
      assert.ok(grew('socialapi_platform_requests_total', { platform: 'reddit', outcome: 'ok' }) >= 1);
      assert.equal(grew('socialapi_platform_errors_total', { platform: 'reddit', kind: 'transient' }), 1);
      assert.ok((after.value('socialapi_platform_request_duration_seconds_count', { platform: 'reddit' }) ?? 0) >= 2);

      // Jobs by lane, kind and outcome: the delivery step retried (its own target retry is a new
      // job), the webhook send likewise, and every handler run timed.
      assert.equal(after.types.get('socialapi_jobs_total'), 'counter');
      assert.equal(grew('socialapi_jobs_total', deliveriesDone), 2);
      assert.equal(grew('socialapi_jobs_total', sendsDone), 2);
      assert.equal(grew('socialapi_jobs_total', { lane: 'posts', kind: 'post.deliver', outcome: 'failed' }), 0);
      assert.ok(grew('socialapi_job_duration_seconds_count', { lane: 'posts', kind: 'post.deliver' }) >= 2);
    });

    test('queue depth and the oldest due job: a scheduled post that came due while no worker ran; a `socialapi worker` serving METRICS_PORT', async () => {
      // The service alone (no worker), on a clock three minutes behind: a post scheduled two
      // minutes ahead of that clock is a minute overdue in real time.
      const late = new ShiftClock(-180_000);
      const api = await startPostsApp(dialect, { clock: late, worker: false, env: { METRICS: '1' } });
      try {
        const { key, organizationId } = await api.tenant();
        const account = await addAccount(api, organizationId, 'reddit');
        const due = (s: Scrape) => s.value('socialapi_jobs_due', { lane: 'posts' }) ?? 0;
        const res = await createPost(api, key, { content: 'Late', scheduledFor: new Date(late.now() + 120_000).toISOString(), platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox' } }] });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const first = await scrapeAt(`${api.url}/metrics`);
        assert.equal(first.types.get('socialapi_jobs_due'), 'gauge');
        assert.equal(due(first), 0);
        assert.equal(first.value('socialapi_jobs_oldest_due_age_seconds', { lane: 'default' }), 0);

        late.offset = 0;
        // The reading is cached for 2 s: a scrape soon after may still show the last one.
        const overdue = await waitFor(async () => {
          const s = await scrapeAt(`${api.url}/metrics`);
          return due(s) === 1 ? s : null;
        }, 5000, 'the scheduled post to count as due');
        const age = overdue.value('socialapi_jobs_oldest_due_age_seconds', { lane: 'posts' }) ?? 0;
        assert.ok(age >= 55 && age < 75, `oldest due job about a minute old (${age})`);

        // A worker process with metrics on a port of its own (its only port) and a token.
        const port = await freePort();
        await startWorkerProcess(api, running, { METRICS_PORT: String(port), METRICS_TOKEN: TOKEN });
        assert.equal((await settled(api, key, res.body.post.id)).status, 'published');
        const url = `http://127.0.0.1:${port}/metrics`;
        assert.equal((await fetch(url)).status, 401);
        assert.equal((await fetch(`http://127.0.0.1:${port}/other`, { headers: auth() })).status, 404);
        const worker = await waitFor(async () => {
          const s = await scrapeAt(url, TOKEN);
          const done = (kind: string) => s.value('socialapi_jobs_total', { lane: 'posts', kind, outcome: 'completed' }) === 1;
          return done('post.dispatch') && done('post.deliver') ? s : null;
        }, 5000, "the worker's dispatch and delivery to be counted");
        assert.equal(worker.value('socialapi_post_targets_total', { platform: 'reddit', outcome: 'published' }), 1);
        assert.ok((worker.value('socialapi_platform_requests_total', { platform: 'reddit', outcome: 'ok' }) ?? 0) >= 1);
        assert.ok((worker.value('socialapi_process_cpu_user_seconds_total') ?? 0) > 0);
        // A worker answers no HTTP requests of the API.
        assert.equal(worker.sum('socialapi_http_requests_total'), 0);
        // Nothing is due any more, as the service and the worker both see it.
        await waitFor(async () => due(await scrapeAt(`${api.url}/metrics`)) === 0, 5000, 'the queue to drain');
        assert.equal(due(await scrapeAt(url, TOKEN)), 0);
      } finally {
        for (const process of running.splice(0)) await process.stop();
        await api.close();
      }
    });

    test('job runs that end without an outcome of their worker: lease_lost and released at shutdown', async () => {
      const database = await createTestDatabase(dialect);
      const store = await openJobStore(database);
      const metrics = new Metrics({ store, clock: systemClock });
      const started: string[] = [];
      // Runs until its signal aborts it (lease lost, or released at shutdown).
      const hang = defineJob({
        kind: 'test.hang',
        payload: Type.Object({}),
        maxAttempts: 3,
        timeoutMs: 60_000,
        async run(_payload, { jobId, signal }) {
          started.push(jobId);
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          throw new Error('aborted');
        },
      });
      const worker = startWorker(store, timeJobRuns([hang], metrics), { leaseMs: 300, shutdownTimeoutMs: 100, ...jobOutcomeObservers(metrics) });
      try {
        const lost = await insertJob(store, { kind: 'test.hang' });
        await waitFor(() => started.includes(lost), 5000, 'the first job to start');
        // Another worker took the job over: the lease renewal finds the row no longer leased to it.
        await store.db.updateTable('jobs').set({ locked_by: 'someone-else' }).where('id', '=', lost).execute();
        const count = async (outcome: string) => parseExposition((await metrics.scrape()).body).value('socialapi_jobs_total', { lane: 'default', kind: 'test.hang', outcome }) ?? 0;
        await waitFor(async () => (await count('lease_lost')) === 1, 5000, 'lease_lost to be counted');
        await store.db.deleteFrom('jobs').where('id', '=', lost).execute(); // the other worker finished it

        const released = await insertJob(store, { kind: 'test.hang' });
        await waitFor(() => started.includes(released), 5000, 'the second job to start');
        await worker.stop();
        assert.equal(await count('released'), 1);
        assert.equal(await count('completed'), 0);
        assert.equal((await jobRow(store, released))?.status, 'pending');
        const scrape = parseExposition((await metrics.scrape()).body);
        assert.equal(scrape.value('socialapi_job_duration_seconds_count', { lane: 'default', kind: 'test.hang' }), 2);
      } finally {
        await worker.stop();
        await store.close();
        await database.drop();
      }
    });

    test('without METRICS or METRICS_PORT, /metrics is not there and nothing is counted; METRICS_PORT alone keeps it off the API port', async () => {
      const off = await startApp(dialect);
      const ownPort = await startApp(dialect, { env: { METRICS_PORT: String(await freePort()) } });
      try {
        assert.equal(off.runtime.deps.metrics, undefined);
        assert.ok(ownPort.runtime.deps.metrics);
        for (const app of [off, ownPort]) {
          const res = await app.request('/metrics');
          assert.equal(res.status, 404);
          assert.equal(((await res.json()) as { error: { message: string } }).error.message, 'Route GET /metrics not found');
        }
      } finally {
        await off.close();
        await ownPort.close();
      }
    });
  });
}

test('adapters seen through the metrics observer answer as themselves (arrays, nested capabilities, inherited methods)', async () => {
  const config = parseConfig({ SANDBOX: '1', DATA_DIR: '/nonexistent' });
  const database = await createTestDatabase('sqlite');
  const store = openStore(parseConfig({ DATABASE_URL: database.url }).database);
  try {
    const raw = createPlatforms(config);
    const seen = createPlatforms(config, platformObserver(new Metrics({ store, clock: systemClock })));
    let arrays = 0;
    const compare = (a: unknown, b: unknown, path: string, depth: number): void => {
      if (depth > 4 || a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return;
      for (const key of Object.keys(a)) {
        const x: unknown = Reflect.get(a, key);
        const y: unknown = Reflect.get(b, key);
        if (Array.isArray(x)) {
          arrays++;
          assert.ok(Array.isArray(y), `${path}.${key}`);
          assert.equal(y.length, x.length, `${path}.${key}`);
          // Every element is found by the observed array's own (inherited) includes and indexOf.
          for (const [i, item] of x.entries()) if (typeof item !== 'object') assert.equal(y.indexOf(item), i, `${path}.${key}[${i}]`);
          if (x.length && typeof x[0] !== 'object') assert.ok(y.includes(x[0]) && !y.includes('no such value'), `${path}.${key}`);
        } else if (typeof x === 'function') {
          assert.equal(typeof y, 'function', `${path}.${key}`);
        } else if (typeof x !== 'object') {
          assert.equal(y, x, `${path}.${key}`);
        }
        compare(x, y, `${path}.${key}`, depth + 1);
      }
    };
    for (const platform of PLATFORMS) compare(raw.adapters[platform], seen.adapters[platform], platform, 0);
    assert.ok(arrays > 5, `arrays compared: ${arrays}`);
  } finally {
    await store.close();
    await database.drop();
  }
});
