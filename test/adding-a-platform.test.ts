// Issue 30, point 5: a platform is one folder (its definition) plus one sandbox folder and a line
// in each registry. The test copies src/ into a scratch tree, puts the tests' own platform "kite"
// there (test/fixtures/kite/), adds its two registry lines and nothing else, typechecks the tree,
// starts its server as `serve` does, and, on both stores, connects a kite account, publishes a
// post to it through the API, and finds kite's options in the OpenAPI document and in the MCP
// tool get_platform_options (create_post refers to it). docs/adding-a-platform.md describes the same steps.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, runToEnd, spawnProcess, type Spawned } from './harness/cli.ts';
import { freePort } from './harness/connect.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { httpClient } from './mcp-support.ts';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'kite');

/** Adds `line` before the first line matching `anchor` (the file must have it). */
function addLineBefore(file: string, anchor: RegExp, line: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => anchor.test(l));
  assert.ok(at >= 0, `${file} has no line matching ${anchor}`);
  lines.splice(at, 0, line);
  writeFileSync(file, lines.join('\n'));
}

/** A copy of the service with kite added: its two folders, one import and one entry in each registry. */
function scratchTree(): string {
  // Inside the project, so the copy resolves the project's node_modules.
  const tree = mkdtempSync(join(ROOT, '.scratch-'));
  for (const name of ['src', 'bin', 'package.json']) cpSync(join(ROOT, name), join(tree, name), { recursive: true });
  writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['src', 'bin'] }));
  cpSync(join(FIXTURE, 'platforms', 'kite'), join(tree, 'src', 'platforms', 'kite'), { recursive: true });
  cpSync(join(FIXTURE, 'sandbox', 'kite'), join(tree, 'src', 'sandbox', 'kite'), { recursive: true });
  const registry = join(tree, 'src', 'platforms', 'registry.ts');
  addLineBefore(registry, /^import /, "import { kitePlatform } from './kite/index.ts';");
  addLineBefore(registry, /^\] as const;$/, '  kitePlatform,');
  const modules = join(tree, 'src', 'sandbox', 'modules.ts');
  addLineBefore(modules, /^import /, "import { kiteModule } from './kite/module.ts';");
  addLineBefore(modules, /^\] as const;$/, '  kiteModule,');
  return tree;
}

let tree: string;

before(() => {
  tree = scratchTree();
});
after(() => rmSync(tree, { recursive: true, force: true }));

test('the tree with kite added typechecks', { timeout: 300_000 }, async () => {
  const tsc = await runToEnd(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(tree, 'tsconfig.json')], process.env);
  assert.equal(tsc.code, 0, tsc.stdout + tsc.stderr);
});

for (const dialect of DIALECTS) {
  describe(`a platform of the tests' own, added as one folder [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase;
    let server: Spawned;
    let url: string;
    let key: string;
    const api = (path: string, init: RequestInit = {}) => fetch(`${url}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });

    before(async () => {
      database = await createTestDatabase(dialect);
      const port = await freePort();
      server = spawnProcess(process.execPath, [join(tree, 'bin', 'socialapi.js'), 'serve'], { PORT: String(port), DATABASE_URL: database.url, DATA_DIR: database.dataDir, SANDBOX: '1', LOG_LEVEL: 'warn' });
      [, key = ''] = await server.waitFor(/^\s+(sk_\S+)$/m, 60_000);
      url = `http://127.0.0.1:${port}`;
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test('kite is listed, connects, and a post published to it reaches the kite sandbox', async () => {
      const start = await api(`/connect/kite?redirectUrl=${encodeURIComponent('https://client.example/connected')}`);
      assert.equal(start.status, 200, await start.clone().text());
      const { authUrl } = (await start.json()) as { authUrl: string };
      // kite's consent page approves at once: it redirects to our callback, which redirects to the client.
      const consent = await fetch(authUrl, { redirect: 'manual' });
      assert.equal(consent.status, 302);
      const callback = await fetch(consent.headers.get('location') ?? '', { redirect: 'manual' });
      const back = new URL(callback.headers.get('location') ?? '');
      const accountId = back.searchParams.get('accountId') ?? '';
      assert.match(accountId, /\S/, back.toString());

      const { account } = (await (await api(`/accounts/${accountId}`)).json()) as { account: { platform: string; username: string } };
      assert.deepEqual([account.platform, account.username], ['kite', 'sandbox_flyer']);

      // A format rule and a live rule of kite's own, each a 400 naming the field.
      const wrongMood = await api('/posts', { method: 'POST', body: JSON.stringify({ content: 'Up she goes', publishNow: true, platforms: [{ accountId, platformSpecificData: { mood: 'stormy' } }] }) });
      assert.equal(wrongMood.status, 400);
      assert.match(((await wrongMood.json()) as { error: { message: string } }).error.message, /platforms\[0\]\.platformSpecificData\.mood/);
      const noMood = await api('/posts', { method: 'POST', body: JSON.stringify({ content: 'Up she goes', publishNow: true, platforms: [{ accountId }] }) });
      assert.equal(noMood.status, 400);
      assert.match(((await noMood.json()) as { error: { message: string } }).error.message, /platforms\[0\]\.platformSpecificData\.mood: required for live posts/);

      const created = await api('/posts', { method: 'POST', body: JSON.stringify({ content: 'Up she goes', publishNow: true, platforms: [{ accountId, platformSpecificData: { mood: 'gusty' } }] }) });
      assert.equal(created.status, 201, await created.clone().text());
      const { post } = (await created.json()) as { post: { id: string } };
      let target: { status: string; platformPostId: string | null; url: string | null } | undefined;
      for (let i = 0; i < 100 && target?.status !== 'published'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        target = ((await (await api(`/posts/${post.id}`)).json()) as { post: { targets: NonNullable<typeof target>[] } }).post.targets[0];
      }
      assert.equal(target?.status, 'published', JSON.stringify(target));
      const { posts } = (await (await fetch(`${url}/sandbox/_sandbox/kite/posts`)).json()) as { posts: Array<{ id: string; text: string; mood: string }> };
      assert.deepEqual(posts.map((p) => [p.id, p.text, p.mood]), [[target?.platformPostId, 'Up she goes', 'gusty']]);
      assert.equal(target?.url, `https://kite.example/p/${target?.platformPostId}`);
    });

    test("kite's options are in the OpenAPI document and in the MCP tool get_platform_options", async () => {
      const doc = await (await fetch(`${url}/api/v1/openapi.json`)).text();
      assert.match(doc, /"title":"KiteData"/);
      assert.match(doc, /"description":"Connect Reddit, [^"]*Kite accounts;/);
      const mcp = await httpClient({ url }, key);
      try {
        const { tools } = await mcp.client.listTools();
        const createPost = JSON.stringify(tools.find((tool) => tool.name === 'create_post')?.inputSchema);
        assert.match(createPost, /threads, [^"]*kite\): call get_platform_options/);
        const options = JSON.stringify(tools.find((tool) => tool.name === 'get_platform_options')?.inputSchema);
        assert.match(options, /"enum":\[[^\]]*"kite"\]/);
        const result = await mcp.client.callTool({ name: 'get_platform_options', arguments: { platform: 'kite' } });
        const text = JSON.stringify(result.content);
        assert.match(text, /KiteData/);
        assert.match(text, /\\"enum\\":\[\\"calm\\",\\"gusty\\"\]/);
      } finally {
        await mcp.close();
      }
    });
  });
}
