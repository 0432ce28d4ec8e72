// Several nodes (issue 21, point 2): two `serve --no-worker` API processes and two `worker`
// processes on one PostgreSQL and one Redis. 2,000 publishNow posts go in through both API nodes;
// one worker is killed with SIGKILL midway. Checked: every target reaches the platform exactly
// once (the sandbox's journal, read as it fills); the survivor finishes the killed worker's jobs
// within 15 s of the kill (default lease); every webhook event reaches a real receiver, a
// duplicate only with the same idempotency key; the per-key rate limit is one budget across the
// API nodes (Redis); a key revoked elsewhere is refused by an API node within a second.
// PostgreSQL only: several processes on one SQLite file is not how this service scales out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore, type Store } from '../src/db/database.ts';
import { parseConfig } from '../src/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createKey } from '../src/modules/keys/service.ts';
import type { JournalEntry } from '../src/sandbox/core/journal.ts';
import { runCli } from './harness/cli.ts';
import { createTestDatabase, type TestDatabase } from './harness/databases.ts';
import { freePort, removeDataDirs, seedAccount, sharedSettings, startApiNode, startSandboxServer, startWorkerNode, type Node, type SandboxServer } from './harness/nodes.ts';
import { Receiver } from './harness/receiver.ts';
import { REDIS_URL, skipPostgres, skipRedis } from './harness/services.ts';
import { waitFor } from './harness/wait.ts';

const POSTS = 2000;
// Reconciling an interrupted call reads one page of the account's newest posts (100 on reddit
// and facebook): at 84 posts an account, the post looked for is always on it.
const ACCOUNTS_PER_PLATFORM = 12;
const PLATFORMS = ['reddit', 'facebook'] as const;
/** Each publishing call takes this long at the sandbox, so a kill finds calls in flight. */
const CALL_DELAY_MS = 300;
/** The bound from the kill to the killed worker's jobs being finished by the other. */
const RESUME_BOUND_MS = 15_000;

/**
 * What reached the platforms, read from the sandbox's journal as it fills (it keeps the last
 * 5,000 requests; a gap between two reads would fail the test rather than hide calls).
 */
class JournalTap {
  readonly publishes = new Map<string, number>();
  #seq = 0;
  #timer: NodeJS.Timeout;
  readonly #sandbox: SandboxServer;
  constructor(sandbox: SandboxServer) {
    this.#sandbox = sandbox;
    this.#seq = sandbox.state.journal.list().at(-1)?.seq ?? 0;
    this.#timer = setInterval(() => this.read(), 100);
  }

  read(): void {
    const entries = this.#sandbox.state.journal.list({ after: this.#seq });
    const first = entries[0];
    if (first && first.seq !== this.#seq + 1) throw new Error(`the journal dropped ${first.seq - this.#seq - 1} requests between two reads`);
    for (const entry of entries) {
      const content = publishedContent(entry);
      if (content !== null) this.publishes.set(content, (this.publishes.get(content) ?? 0) + 1);
      this.#seq = entry.seq;
    }
  }

  stop(): void {
    clearInterval(this.#timer);
    this.read();
  }
}

/** The post text a publishing call carried (reddit: the title, the content's first line). */
function publishedContent(entry: JournalEntry): string | null {
  if (entry.method !== 'POST' || entry.status >= 300) return null;
  const body = (entry.body ?? {}) as Record<string, unknown>;
  if (entry.host === 'oauth.reddit.com' && entry.path === '/api/submit') return typeof body.title === 'string' ? body.title : null;
  if (entry.host === 'graph.facebook.com' && /\/feed$/.test(entry.path)) return typeof body.message === 'string' ? body.message.split('\n')[0] ?? null : null;
  return null;
}

interface Delivery {
  eventId: string;
  event: string;
  postId: string;
  idempotencyKey: string;
}

describe('several nodes: two API processes, two workers, one PostgreSQL, one Redis', { skip: skipPostgres || skipRedis }, () => {
  let database: TestDatabase | undefined;
  let sandbox: SandboxServer | undefined;
  let store: Store | undefined;
  const receiver = new Receiver();
  const nodes: Node[] = [];
  let shared: Record<string, string> = {};

  before(async () => {
    database = await createTestDatabase('postgres');
    sandbox = await startSandboxServer();
    await receiver.start();
  });
  after(async () => {
    await Promise.all(nodes.map((n) => n.process.stop('SIGKILL')));
    await store?.close();
    await receiver.stop();
    await sandbox?.close();
    await database?.drop();
    removeDataDirs();
  });

  test('2,000 posts through both API nodes, a worker killed midway: each target published once, every event delivered', { timeout: 300_000 }, async (tc) => {
    if (!database || !sandbox) throw new Error('not set up');
    const started = Date.now();
    const [portA, portB] = [await freePort(), await freePort()];
    shared = {
      ...sharedSettings(database.url, REDIS_URL, sandbox.url, `http://127.0.0.1:${portA}`),
      // A call cut off by the kill is looked for on the platform once it can no longer be
      // running there: this plus 5 s after it began (30 s by default, too long to wait for here).
      PLATFORM_TIMEOUT_MS: '5000',
    };
    // The first node meets the empty database: it migrates and prints the first key. Then the
    // others, all at once, on the migrated database. The lease is left at its default.
    const apiA = await startApiNode('api-a', shared, portA);
    nodes.push(apiA);
    const [apiB, worker1, worker2] = await Promise.all([startApiNode('api-b', shared, portB), startWorkerNode('worker-1', shared), startWorkerNode('worker-2', shared)]);
    nodes.push(apiB, worker1, worker2);
    const organizationId = apiA.organizationId ?? '';
    assert.match(organizationId, /^org_/);
    const api = [apiA.url ?? '', apiB.url ?? ''];

    store = openStore(parseConfig({ DATABASE_URL: database.url, DATA_DIR: database.dataDir }).database);
    const { db } = store;
    const accounts: string[] = [];
    for (const platform of PLATFORMS) for (let i = 0; i < ACCOUNTS_PER_PLATFORM; i++) accounts.push(await seedAccount(db, shared.ENCRYPTION_KEY ?? '', sandbox.state, organizationId, platform));
    const load = await createKey(db, systemClock, organizationId, { name: 'load', rateLimit: 1_000_000_000 });
    const headers = { authorization: `Bearer ${load.key}`, 'content-type': 'application/json' };

    // A webhook endpoint for post outcomes, at a real receiver.
    const hook = await fetch(`${api[0]}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: ['post.published', 'post.failed'] }) });
    assert.equal(hook.status, 201, await hook.clone().text());

    for (const [host, path] of [['oauth.reddit.com', '/api/submit'], ['graph.facebook.com', '/*/feed']] as const) {
      sandbox.state.faults.add({ host, path, method: 'POST', kind: 'delay', delayMs: CALL_DELAY_MS, times: 1e9 });
    }
    const tap = new JournalTap(sandbox);
    tc.after(() => tap.stop());

    // 2,000 publishNow posts, alternately through each API node, one target each.
    const contents: string[] = [];
    const postIds: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < POSTS) {
          const i = next++;
          const content = `Nodes post ${i}`;
          const accountId = accounts[i % accounts.length] ?? '';
          const platformSpecificData = accounts.indexOf(accountId) < ACCOUNTS_PER_PLATFORM ? { subreddit: 'sandbox' } : {};
          const res = await fetch(`${api[i % 2]}/api/v1/posts`, { method: 'POST', headers, body: JSON.stringify({ content: `${content}\nbody`, publishNow: true, platforms: [{ accountId, platformSpecificData }] }) });
          const text = await res.text();
          assert.equal(res.status, 201, text);
          contents[i] = content;
          postIds[i] = (JSON.parse(text) as { post: { id: string } }).post.id;
        }
      }),
    );
    const createdAt = Date.now();

    // Midway: once a quarter of the targets reached the platform and the first worker holds
    // jobs, it is killed; the jobs it held stay leased to it until their lease runs out.
    const victimTag = `:${worker1.pid}:`;
    const leasedByVictim = () => db.selectFrom('jobs').select(['id', 'payload']).where('status', '=', 'running').where('locked_by', 'like', `%${victimTag}%`).execute();
    await waitFor(async () => {
      tap.read();
      return tap.publishes.size >= POSTS / 4 && (await leasedByVictim()).length >= 10;
    }, 120_000, 'a quarter of the targets published, the first worker holding jobs', 50);
    worker1.process.child.kill('SIGKILL');
    await worker1.process.stop();
    const killedAt = Date.now();
    const orphans = await leasedByVictim();
    const publishedAtKill = tap.publishes.size;
    assert.ok(orphans.length > 0, 'the killed worker held jobs');

    // Meanwhile, on the API nodes: the shared rate limit and a revocation heard everywhere.
    await checkSharedRateLimit(db, organizationId, api);
    const revocationMs = await checkRevocation(db, organizationId, api, shared);

    // The survivor finishes the killed worker's jobs: each is gone (completed) or was settled
    // by the survivor (retried or failed, no longer the lease's expiry).
    const orphanIds = orphans.map((o) => o.id);
    const resumedAt = await waitFor(
      async () => {
        const rows = await db.selectFrom('jobs').select(['id', 'status', 'locked_by', 'last_error']).where('id', 'in', orphanIds).execute();
        const open = rows.filter((r) => r.status === 'running' || r.last_error === 'lease expired');
        return open.length === 0 ? Date.now() : null;
      },
      60_000,
      "the killed worker's jobs to be finished by the other",
      25,
    );
    const resumeMs = resumedAt - killedAt;

    // Every post settles, published.
    await waitFor(
      async () => {
        const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<string>().as('n')).where('organization_id', '=', organizationId).where('status', 'in', ['published', 'failed', 'partial']).executeTakeFirstOrThrow();
        return Number(row.n) === POSTS;
      },
      120_000,
      'every post to settle',
      200,
    );
    const orphanTargets = orphans.map((o) => (JSON.parse(o.payload) as { targetId?: string }).targetId ?? '');
    const orphanTargetRows = await db.selectFrom('post_targets').select(['id', 'status', 'updated_at']).where('id', 'in', orphanTargets).execute();
    const orphansPublishedMs = Math.max(...orphanTargetRows.map((r) => Number(r.updated_at))) - killedAt;
    const unpublished = await db.selectFrom('post_targets').select(['platform', 'status', 'error']).where('organization_id', '=', organizationId).where('status', '!=', 'published').execute();
    assert.deepEqual(unpublished, [], 'every target published');
    const ids = await db.selectFrom('post_targets').select('platform_post_id').where('organization_id', '=', organizationId).execute();
    assert.equal(new Set(ids.map((r) => r.platform_post_id)).size, POSTS, 'each target holds a platform post of its own');

    // Exactly once on the platform side, by the journal.
    tap.stop();
    const twice = contents.filter((c) => (tap.publishes.get(c) ?? 0) !== 1).map((c) => `${c}: ${tap.publishes.get(c) ?? 0}`);
    assert.deepEqual(twice, [], 'each post reached its platform exactly once');

    // Every event reaches the receiver; a repeat only with the same idempotency key.
    const events = await db.selectFrom('events').select(['id', 'type', 'data']).where('organization_id', '=', organizationId).where('type', 'in', ['post.published', 'post.failed']).execute();
    assert.equal(events.length, POSTS, 'one outcome event per post');
    const received = await waitFor(
      () => {
        const deliveries = receiver.received.map((r): Delivery => {
          const body = JSON.parse(r.body) as { id: string; event: string; data: { postId: string } };
          return { eventId: body.id, event: body.event, postId: body.data.postId, idempotencyKey: String(r.headers['x-idempotency-key']) };
        });
        return new Set(deliveries.map((d) => d.eventId)).size >= events.length ? deliveries : null;
      },
      60_000,
      'every event at the receiver',
      100,
    );
    const keyOf = new Map<string, string>();
    for (const d of received) {
      const seen = keyOf.get(d.eventId);
      assert.ok(seen === undefined || seen === d.idempotencyKey, `event ${d.eventId} arrived twice with different idempotency keys`);
      keyOf.set(d.eventId, d.idempotencyKey);
    }
    assert.deepEqual(new Set(received.map((d) => d.eventId)), new Set(events.map((e) => e.id)), 'the receiver heard exactly the stored events');
    assert.deepEqual(new Set(received.map((d) => d.postId)), new Set(postIds), 'an event for every post');
    assert.equal(new Set(keyOf.values()).size, events.length, 'one idempotency key per event');

    const count = (text: string) => worker2.process.output().split(text).length - 1;
    const interrupted = count('resuming a post target whose last platform call was interrupted');
    // Under this load the survivor's own leases must hold: a renewal late enough to give a job up
    // would show here (and cost that job a lease's wait).
    const givenUp = count('lease not renewed in time') + count('lease lost');
    tc.diagnostic(
      `posts created in ${createdAt - started} ms (from the first process start); killed worker ${worker1.pid} at ${publishedAtKill}/${POSTS} targets published, holding ${orphans.length} jobs; ` +
        `its jobs finished by the other worker ${resumeMs} ms after the kill, their targets published ${orphansPublishedMs} ms after; ${interrupted} targets resumed after an interrupted platform call; ${givenUp} jobs given up by the surviving worker; ` +
        `revocation heard on the other node in ${revocationMs} ms; ${received.length - events.length} webhook repeats; whole test ${Date.now() - started} ms`,
    );
    assert.ok(resumeMs <= RESUME_BOUND_MS, `the killed worker's jobs were finished ${resumeMs} ms after the kill (bound ${RESUME_BOUND_MS} ms)`);
  });

  /** A key allowed 5 requests a minute, used alternately on both nodes: the 6th is refused, wherever it lands. */
  async function checkSharedRateLimit(db: Store['db'], organizationId: string, api: string[]): Promise<void> {
    const limited = await createKey(db, systemClock, organizationId, { name: 'limited', rateLimit: 5 });
    const seen: Array<[number, string | null]> = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${api[i % 2]}/api/v1/accounts`, { headers: { authorization: `Bearer ${limited.key}` } });
      await res.arrayBuffer();
      seen.push([res.status, res.headers.get('ratelimit-remaining')]);
    }
    assert.deepEqual(seen, [[200, '4'], [200, '3'], [200, '2'], [200, '1'], [200, '0'], [429, '0'], [429, '0']], 'one budget across both nodes');
  }

  /**
   * A key in use on both nodes is revoked by the operator's CLI (a process of its own, as on
   * another machine); node B refuses it within a second. Returns how long that took.
   */
  async function checkRevocation(db: Store['db'], organizationId: string, api: string[], env: Record<string, string>): Promise<number> {
    const revoked = await createKey(db, systemClock, organizationId, { name: 'to revoke' });
    const status = async (url: string) => {
      const res = await fetch(`${url}/api/v1/accounts`, { headers: { authorization: `Bearer ${revoked.key}` } });
      await res.arrayBuffer();
      return res.status;
    };
    // Both nodes now remember the key (their caches hold it).
    for (const url of api) for (let i = 0; i < 3; i++) assert.equal(await status(url), 200);
    const cli = await runCli(['keys', 'revoke', revoked.row.id], { ...env, DATA_DIR: database?.dataDir ?? '' });
    assert.equal(cli.code, 0, cli.stderr);
    const revokedAt = Date.now();
    const [, nodeB = ''] = api;
    await waitFor(async () => (await status(nodeB)) === 401, 1000, 'node B to refuse the revoked key', 20);
    const took = Date.now() - revokedAt;
    assert.equal(await status(api[0] ?? ''), 401);
    return took;
  }
});
