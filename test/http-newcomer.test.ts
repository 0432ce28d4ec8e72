// What a newcomer meets first (issue 33, item 7), through the real server: `socialapi --help`
// and `help CMD`; GET / with the links to read next; a known path with the wrong method is a 405
// naming the methods it takes (Allow); a body over the limit is a 413 saying the limit; and
// `serve` on a terminal logs one readable line per request (JSON lines when not on a terminal:
// test/cli.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli, spawnProcess, BIN } from './harness/cli.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { createTestDatabase, type TestDatabase } from './harness/databases.ts';

describe('socialapi --help and help CMD', () => {
  test('--help prints every command and exits 0; help CMD prints its details', async () => {
    const [help, short, mcp, keys, unknown] = await Promise.all([runCli(['--help'], {}), runCli(['help'], {}), runCli(['help', 'mcp'], {}), runCli(['keys', '--help'], {}), runCli(['help', 'frobnicate'], {})]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: socialapi <command>/);
    for (const command of ['serve', 'worker', 'migrate', 'openapi', 'mcp', 'sandbox', 'orgs', 'keys', 'posts', 'dashboard', 'help']) assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'));
    assert.equal(short.stdout, help.stdout);
    assert.equal(mcp.code, 0);
    assert.match(mcp.stdout, /socialapi mcp \[--url URL\] \[--toolsets LIST\]/);
    assert.match(mcp.stdout, /SOCIALAPI_MCP_TOOLSETS/);
    assert.equal(keys.code, 0);
    assert.match(keys.stdout, /socialapi keys create --org ORG/);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /socialapi: no command frobnicate\n\nusage: socialapi/);
  });
});

describe('HTTP for a newcomer', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startApp('sqlite');
    ({ key } = await t.tenant());
  });
  after(() => t.close());

  test('GET / links the API document, the dashboard and MCP, and each link answers', async () => {
    const res = await t.request('/');
    assert.equal(res.status, 200);
    const body = (await res.json()) as { links: Record<string, string> };
    const base = t.config.publicBaseUrl;
    assert.equal(body.links.openapi, `${base}/api/v1/openapi.json`);
    assert.equal(body.links.dashboard, `${base}/dashboard`);
    assert.equal(body.links.mcp, `${base}/mcp`);
    // /docs is linked only once a route serves it.
    const docs = await t.request('/docs');
    assert.equal(body.links.docs === undefined, docs.status === 404);
    for (const name of ['openapi', 'dashboard', 'health', ...(body.links.docs ? ['docs'] : [])]) {
      const path = (body.links[name] ?? '').slice(base.length);
      const answer = await t.request(path, { redirect: 'manual' });
      assert.ok(answer.status < 400, `${name} (${path}) answered ${answer.status}`);
    }
  });

  test('a known path with the wrong method is 405 with Allow; an unknown path stays 404', async () => {
    const put = await t.request('/api/v1/posts', { method: 'PUT', key, headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, HEAD, POST');
    assert.equal(((await put.json()) as { error: { message: string } }).error.message, 'PUT is not allowed on /api/v1/posts; it takes GET, HEAD, POST');
    const withId = await t.request('/api/v1/posts/post_x/publish', { method: 'GET', key });
    assert.equal(withId.status, 405);
    assert.equal(withId.headers.get('allow'), 'POST');
    const unknown = await t.request('/api/v1/nothing-here', { method: 'PUT', key });
    assert.equal(unknown.status, 404);
    // A route that answers "not found" itself stays a 404.
    assert.equal((await t.request('/api/v1/posts/post_missing', { key })).status, 404);
  });

  test('a body over the limit is a 413 that says the limit', async () => {
    const res = await t.request('/api/v1/webhooks', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'x'.repeat(2 * 1024 * 1024) }) });
    assert.equal(res.status, 413);
    const { error } = (await res.json()) as { error: { message: string; code: string } };
    assert.equal(error.code, 'payload_too_large');
    assert.equal(error.message, 'body: request body is larger than the limit of 1048576 bytes (1 MiB)');
  });
});

describe('serve on a terminal', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('sqlite');
  });
  after(() => database.drop());

  test('one readable line per request, and no JSON', async () => {
    // `script` gives the server a terminal, as a person's shell does.
    const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} serve --no-worker`;
    const server = spawnProcess('script', ['-qfec', command, '/dev/null'], { DATABASE_URL: database.url, DATA_DIR: database.dataDir, PORT: '0', LOG_LEVEL: 'info' });
    try {
      const [, url = ''] = await server.waitFor(/listening on (http:\/\/[\w.:]+)/);
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      assert.equal((await fetch(`${url}/api/v1/nothing`, { method: 'DELETE' })).status, 404);
      await server.waitFor(/DELETE \/api\/v1\/nothing 404/);
      const lines = server.output().split(/\r?\n/);
      assert.equal(lines.filter((line) => / GET \/healthz 200 \d+ ms req_/.test(line)).length, 1, server.output());
      assert.ok(lines.some((line) => /^\d\d:\d\d:\d\d DELETE \/api\/v1\/nothing 404 \d+ ms req_\S+$/.test(line)), server.output());
      assert.ok(!lines.some((line) => line.startsWith('{')), 'no JSON line on a terminal');
      assert.ok(lines.some((line) => /^\d\d:\d\d:\d\d INFO {2}/.test(line)), server.output());
    } finally {
      await server.stop();
    }
  });
});
