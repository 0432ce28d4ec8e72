// The `socialapi` command as an operator uses it: first start, key management, migrations,
// usage errors, one-line start-up failures, and logs free of secrets.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { descendants, isRunning, runCli, spawnCli, spawnProcess, type Spawned } from './harness/cli.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';

const get = (url: string, key: string) => fetch(`${url}/api/v1/accounts`, { headers: { authorization: `Bearer ${key}` } });

describe('usage errors exit 2 with the usage', () => {
  for (const args of [[], ['frobnicate'], ['keys', 'create'], ['orgs', 'create', '--name', 'x', '--bogus'], ['keys', 'revoke'], ['keys', 'create', '--org', 'org_x', '--rate-limit', 'fast'], ['serve', 'extra']]) {
    test(`socialapi ${args.join(' ')}`, async () => {
      const result = await runCli(args, { DATABASE_URL: 'sqlite::memory:' });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /usage: socialapi/);
    });
  }
});

describe('socialapi sandbox', () => {
  test('runs the platform sandbox alone, as PLATFORM_API_BASE would use it', async () => {
    const sandbox = spawnCli(['sandbox', '--port', '0'], {});
    try {
      const [, url = ''] = await sandbox.waitFor(/sandbox listening on (http:\/\/\S+)/);
      const overview = await fetch(`${url}/_sandbox`);
      assert.equal(overview.status, 200);
      const me = await fetch(`${url}/graph.facebook.com/v24.0/me`);
      assert.equal(me.status, 400);
      assert.equal(((await me.json()) as { error: { type: string } }).error.type, 'OAuthException');
    } finally {
      assert.equal(await sandbox.stop(), 0);
    }
  });

  test('--state FILE keeps its people across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialapi-sandbox-state-'));
    const file = join(dir, 'state.json');
    const names = async (url: string) => ((await (await fetch(`${url}/_sandbox/people`)).json()) as { reddit: { users: Array<{ name: string }> } }).reddit.users.map((u) => u.name);
    try {
      const first = spawnCli(['sandbox', '--port', '0', '--state', file], {});
      const [, url = ''] = await first.waitFor(/sandbox listening on (http:\/\/\S+) \(state kept in/);
      const seeded = await fetch(`${url}/_sandbox/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reddit: { users: [{ name: 'kept_user' }] } }) });
      assert.equal(seeded.status, 200);
      assert.ok((await names(url)).includes('kept_user'));
      assert.equal(await first.stop(), 0);
      const second = spawnCli(['sandbox', '--port', '0', '--state', file], {});
      try {
        const [, again = ''] = await second.waitFor(/sandbox listening on (http:\/\/\S+) /);
        assert.ok((await names(again)).includes('kept_user'));
      } finally {
        assert.equal(await second.stop(), 0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('start-up failures are one line', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['a bad PORT', { PORT: 'abc' }, /^socialapi: configuration: PORT must be an integer/],
    ['a bad DATABASE_URL', { DATABASE_URL: 'mysql://localhost/x' }, /^socialapi: configuration: DATABASE_URL must be/],
    ['an unreachable database', { DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/nothing' }, /^socialapi: cannot reach the database at postgres:\/\/127\.0\.0\.1:1\/nothing/],
    ['a bad ENCRYPTION_KEY', { ENCRYPTION_KEY: 'short' }, /^socialapi: configuration: ENCRYPTION_KEY must be 32 bytes/],
    ['an unreachable Redis', { REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'sqlite::memory:' }, /^socialapi: cannot reach Redis at redis:\/\/127\.0\.0\.1:1/],
  ];
  for (const [name, env, pattern] of cases) {
    test(name, async () => {
      const result = await runCli(['serve'], env);
      assert.equal(result.code, 1);
      assert.match(result.stderr, pattern);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /hunter2|\bat .*\.ts:\d+/);
    });
  }
});

describe('a port already in use', () => {
  test('stops the start with one line and exit 1; the first key waits for a start that listens', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-port-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: join(dataDir, 'socialapi.db'), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    try {
      const result = await runCli(['serve'], { ...env, PORT: String(port) });
      assert.equal(result.code, 1);
      assert.equal(result.stderr, `socialapi: port ${port} on 127.0.0.1 is in use; set PORT to another port\n`);
      assert.doesNotMatch(result.stdout, /sk_/, 'no key is shown by a start that failed');
      const next = spawnCli(['serve', '--no-worker'], { ...env, PORT: '0' });
      try {
        await next.waitFor(/API document/);
        assert.match(next.output(), /^\s+sk_[0-9A-Za-z]{43}$/m, 'the next start still creates and shows the first key');
      } finally {
        await next.stop();
      }
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// npm runs the start script through a shell (npm -> sh -c -> node) and passes a signal it gets
// to that shell only. Whatever the route, the server must stop and leave no process behind.
describe('npm start and signals', () => {
  const cases: Array<[name: string, signal: NodeJS.Signals, toGroup: boolean]> = [
    ['SIGTERM to npm (a supervisor, kill PID)', 'SIGTERM', false],
    ['SIGINT to the process group (Ctrl-C in a terminal)', 'SIGINT', true],
    ['SIGTERM to the process group (kill -- -PGID)', 'SIGTERM', true],
  ];
  for (const [name, signal, toGroup] of cases) {
    test(name, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-npm-'));
      const npm = spawnProcess('npm', ['start', '--silent'], { DATA_DIR: dataDir, DATABASE_URL: join(dataDir, 'socialapi.db'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }, { detached: true });
      const npmPid = npm.child.pid ?? 0;
      try {
        const [, url = ''] = await npm.waitFor(/listening on (http:\/\/\S+)/, 60_000);
        await npm.waitFor(/API document/);
        const server = descendants(npmPid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('socialapi.js'));
        assert.ok(server, `the server process under npm (${npmPid})`);
        assert.equal((await fetch(`${url}/healthz`)).status, 200);

        process.kill(toGroup ? -npmPid : npmPid, signal);
        await waitFor(() => npm.child.exitCode !== null || npm.child.signalCode !== null, 15_000, 'npm to exit');
        await waitFor(() => !isRunning(server), 15_000, 'the server process to exit');
        // Its last lines may still be in the pipe when npm is gone: wait for them, not a fixed time.
        await waitFor(() => npm.output().includes('"msg":"shutting down"'), 5000, `the graceful shutdown's log line in:\n${npm.output()}`);
        assert.doesNotMatch(npm.output(), /second signal/, 'and was not cut short');
        await assert.rejects(fetch(`${url}/healthz`), 'nothing listens any more');
      } finally {
        for (const pid of [npmPid, ...descendants(npmPid)]) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

for (const dialect of DIALECTS) {
  describe(`operator commands [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    let server: Spawned;
    let url: string;
    let firstKey: string;

    before(async () => {
      database = await createTestDatabase(dialect);
      env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, PORT: '0', LOG_LEVEL: 'info' };
      server = spawnCli(['serve'], env);
      [, url = ''] = await server.waitFor(/listening on (http:\/\/\S+)/);
      await server.waitFor(/API document/);
      firstKey = /^\s+(sk_[0-9A-Za-z]{43})$/m.exec(server.output())?.[1] ?? '';
    });
    after(async () => {
      await server.stop();
      await database.drop();
    });

    test('the first start prints one key, the URL and a curl line that works', async () => {
      assert.ok(firstKey, server.output());
      assert.match(server.output(), new RegExp(`curl -H "Authorization: Bearer ${firstKey}" ${url}/api/v1/accounts`));
      const res = await get(url, firstKey);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { accounts: [] });
      assert.ok(existsSync(join(database.dataDir, 'encryption.key')), 'encryption key generated into DATA_DIR');
    });

    test('logs carry request ids and no key or credential', async () => {
      await fetch(`${url}/api/v1/accounts?code=oauth-code-secret&state=state-secret`, { headers: { authorization: `Bearer ${firstKey}` } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const logs = server.output().split('\n').filter((line) => line.startsWith('{'));
      assert.ok(logs.some((line) => /"reqId":"req_/.test(line)), 'request lines have an id');
      const text = logs.join('\n');
      assert.ok(!text.includes(firstKey), 'the key is not logged');
      assert.ok(!text.includes(firstKey.slice(3)), 'no part of the key is logged');
      assert.ok(!text.includes('oauth-code-secret') && !text.includes('state-secret'), 'credentials in query strings are masked');
    });

    test('a second start on the same store prints no key', async () => {
      const second = spawnCli(['serve', '--no-worker'], env);
      try {
        await second.waitFor(/API document/);
      } finally {
        await second.stop();
      }
      assert.doesNotMatch(second.output(), /sk_[0-9A-Za-z]{43}/);
      assert.match(second.output(), /keys create --org/);
    });

    test('orgs and keys: create, list, rotate, revoke', async () => {
      const org = await runCli(['orgs', 'create', '--name', 'Acme', '--approval'], env);
      assert.equal(org.code, 0, org.stderr);
      const orgId = /^(org_\S+)\tAcme\tapproval=yes/m.exec(org.stdout)?.[1] ?? '';
      assert.ok(orgId, org.stdout);
      assert.match((await runCli(['orgs', 'list'], env)).stdout, new RegExp(`${orgId}\tAcme`));

      const created = await runCli(['keys', 'create', '--org', orgId, '--name', 'ci', '--rate-limit', '500'], env);
      assert.equal(created.code, 0, created.stderr);
      const keyId = /^(key_\S+) created/m.exec(created.stdout)?.[1] ?? '';
      const key = /^(sk_[0-9A-Za-z]{43})$/m.exec(created.stdout)?.[1] ?? '';
      assert.ok(keyId && key, created.stdout);
      const used = await get(url, key);
      assert.equal(used.status, 200);
      assert.equal(used.headers.get('ratelimit-limit'), '500');

      const listed = await runCli(['keys', 'list', '--org', orgId], env);
      assert.match(listed.stdout, new RegExp(`${keyId}\t${key.slice(0, 11)}…\tci\trate-limit=500\tapproval=no\tactive`));
      assert.ok(!listed.stdout.includes(key), 'listing never shows the key');

      const rotated = await runCli(['keys', 'rotate', keyId], env);
      assert.equal(rotated.code, 0, rotated.stderr);
      const newKey = /^(sk_[0-9A-Za-z]{43})$/m.exec(rotated.stdout)?.[1] ?? '';
      // The server's key cache forgets on the command's notice, which reaches it a few
      // milliseconds after the command ends (docs/architecture/store.md, "Notices between processes").
      const refusedSoon = (oldKey: string) => waitFor(async () => ((await get(url, oldKey)).status === 401 ? true : null), 2000, 'the key refused');
      await refusedSoon(key);
      const afterRotate = await get(url, newKey);
      assert.equal(afterRotate.status, 200);
      assert.equal(afterRotate.headers.get('ratelimit-limit'), '500', 'the new key keeps the settings');

      const newKeyId = /(key_\S+) replaces it/.exec(rotated.stdout)?.[1] ?? '';
      assert.equal((await runCli(['keys', 'revoke', newKeyId], env)).code, 0);
      await refusedSoon(newKey);
      assert.equal((await runCli(['keys', 'revoke', newKeyId], env)).code, 1, 'revoking twice reports no active key');
      assert.equal((await runCli(['keys', 'create', '--org', 'org_nothing'], env)).code, 1);
    });

    test('migrate is idempotent', async () => {
      const result = await runCli(['migrate'], env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /migrations applied/);
    });

    test('SIGTERM stops the server cleanly', async () => {
      const other = spawnCli(['serve'], env);
      await other.waitFor(/API document/);
      assert.equal(await other.stop('SIGTERM'), 0);
    });
  });
}
