// The per-key rate limit: headers on every answer, 429 without a code, per-key overrides, and
// one budget shared by two API processes through Redis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { runCli, spawnCli, type Spawned } from './harness/cli.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { REDIS_URL, skipRedis } from './harness/services.ts';
import { ManualClock } from './harness/clock.ts';
import { connectRedis } from '../src/runtime.ts';

describe('rate limit in memory', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('sqlite');
  });
  after(() => t.close());

  test('default budget is 60 a minute, with the headers on every answer', async () => {
    const { key } = await t.tenant();
    const first = await t.request('/api/v1/accounts', { key });
    assert.equal(first.headers.get('ratelimit-limit'), '60');
    assert.equal(first.headers.get('ratelimit-remaining'), '59');
    assert.ok(Number(first.headers.get('ratelimit-reset')) > 0);
    // A 404 counts and carries the headers too.
    const missing = await t.request('/api/v1/accounts/acc_nothing', { key });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('ratelimit-remaining'), '58');
    for (let i = 0; i < 58; i++) assert.equal((await t.request('/api/v1/accounts', { key })).status, 200);
    const over = await t.request('/api/v1/accounts', { key });
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('ratelimit-remaining'), '0');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    const body = (await over.json()) as { error: { message: string; code?: string } };
    assert.match(body.error.message, /60 requests per minute/);
    assert.equal(body.error.code, undefined);
  });

  test('a per-key limit overrides the default, and keys do not share budgets', async () => {
    const small = await t.tenant({ rateLimit: 3 });
    const other = await t.tenant();
    for (let i = 0; i < 3; i++) assert.equal((await t.request('/api/v1/accounts', { key: small.key })).status, 200);
    const over = await t.request('/api/v1/accounts', { key: small.key });
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('ratelimit-limit'), '3');
    assert.equal((await t.request('/api/v1/accounts', { key: other.key })).status, 200);
  });

  test('probes and the API document are outside the limit', async () => {
    const probe = await t.request('/healthz');
    assert.equal(probe.headers.get('ratelimit-limit'), null);
    const doc = await t.request('/api/v1/openapi.json');
    assert.equal(doc.status, 200);
    assert.equal(doc.headers.get('ratelimit-limit'), null);
  });
});

describe('rate limit windows', () => {
  let t: TestApp;
  const clock = new ManualClock();
  before(async () => {
    t = await startApp('sqlite', { clock });
  });
  after(() => t.close());

  test('a spent budget comes back when its minute is over, and Reset counts down to it', async () => {
    const { key } = await t.tenant({ rateLimit: 2 });
    const first = await t.request('/api/v1/accounts', { key });
    assert.equal(first.headers.get('ratelimit-reset'), '60');
    clock.advance(20_000);
    assert.equal((await t.request('/api/v1/accounts', { key })).headers.get('ratelimit-reset'), '40');
    const over = await t.request('/api/v1/accounts', { key });
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('retry-after'), '40');
    clock.advance(40_000);
    const again = await t.request('/api/v1/accounts', { key });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('ratelimit-remaining'), '1');
  });
});

describe('rate limit with Redis unreachable', { skip: skipRedis }, () => {
  test('requests pass unlimited, with the headers, rather than the API failing', async () => {
    const redis = await connectRedis(REDIS_URL);
    redis.disconnect(); // commands now fail at once (no offline queue)
    const t = await startApp('sqlite', { redisClient: redis });
    try {
      const { key } = await t.tenant({ rateLimit: 1 });
      for (let i = 0; i < 3; i++) {
        const res = await t.request('/api/v1/accounts', { key });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('ratelimit-limit'), '1');
        assert.equal(res.headers.get('ratelimit-remaining'), '1');
      }
    } finally {
      await t.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`rate limit shared through Redis by two API processes [${dialect}]`, { skip: skipReason(dialect) || skipRedis }, () => {
    let database: TestDatabase;
    const servers: Spawned[] = [];
    const urls: string[] = [];
    let env: Record<string, string>;
    before(async () => {
      database = await createTestDatabase(dialect);
      env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, REDIS_URL, PORT: '0', LOG_LEVEL: 'warn' };
      for (let i = 0; i < 2; i++) {
        const server = spawnCli(['serve', '--no-worker'], env);
        servers.push(server);
        const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
        urls.push(url ?? '');
      }
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await database.drop();
    });

    test('requests to either process spend one budget', async () => {
      const orgs = await runCli(['orgs', 'list'], env);
      const orgId = /^(org_\S+)/m.exec(orgs.stdout)?.[1];
      assert.ok(orgId, orgs.stdout + orgs.stderr);
      const created = await runCli(['keys', 'create', '--org', orgId, '--rate-limit', '10'], env);
      const key = /^(sk_\S+)$/m.exec(created.stdout)?.[1];
      assert.ok(key, created.stdout + created.stderr);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await fetch(`${urls[i % 2] ?? ''}/api/v1/accounts`, { headers: { authorization: `Bearer ${key}` } });
        statuses.push(res.status);
        if (i === 9) assert.equal(res.headers.get('ratelimit-remaining'), '0');
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    });
  });
}
