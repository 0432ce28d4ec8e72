// `socialapi mcp` on stdio, spawned as an MCP client spawns it, with the SDK's own client, on
// both stores: against the store (next to the running service) and against the service (--url).
// The tool list covers every operation; tool calls answer what HTTP answers; invalid input,
// another organization's ids and the per-key limit come back as error results; a missing or
// unknown key stops the command with one line.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toolName } from '../src/mcp/names.ts';
import { runCli } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addAccount, createPost, startPostsApp, type PostsApp } from './posts-support.ts';
import { callError, callOk, operations, stdioClient, storeEnv, type McpClient } from './mcp-support.ts';

for (const dialect of DIALECTS) {
  describe(`MCP over stdio [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let local: McpClient;
    let remote: McpClient;
    let key: string;
    let organizationId: string;

    before(async () => {
      t = await startPostsApp(dialect);
      ({ key, organizationId } = await t.tenant());
      // Every tool: by the variable in one mode, by the option in the other.
      [local, remote] = await Promise.all([stdioClient(key, { ...storeEnv(t), SOCIALAPI_MCP_TOOLSETS: 'all' }), stdioClient(key, {}, ['--url', t.url, '--toolsets', 'all'])]);
    });
    after(async () => {
      await Promise.all([local?.close(), remote?.close()]);
      await t.close();
    });

    test('with the toolsets all, tools/list has one tool per operation, in both modes', async () => {
      const ops = await operations(t);
      for (const mcp of [local, remote]) {
        const { tools } = await mcp.client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name).sort(), [...ops.map((op) => toolName(op.operationId)), 'get_platform_options'].sort());
      }
    });

    test('tool calls answer what HTTP answers, in both modes', async () => {
      const account = await addAccount(t, organizationId, 'threads');
      const created = await createPost(t, key, { content: 'over stdio', platforms: [{ accountId: account.id }] });
      const id = created.body.post.id;
      const viaHttp = await (await t.request(`/api/v1/posts/${id}`, { key })).json();
      assert.deepEqual(await callOk(local, 'get_post', { id }), viaHttp);
      assert.deepEqual(await callOk(remote, 'get_post', { id }), viaHttp);
      // A write from the stdio process lands in the store the service reads.
      const made = await callOk<{ post: { id: string } }>(local, 'create_post', { content: 'from stdio', platforms: [{ accountId: account.id }] });
      assert.equal((await t.request(`/api/v1/posts/${made.post.id}`, { key })).status, 200);
    });

    test('invalid input and foreign ids are error results', async () => {
      for (const mcp of [local, remote]) {
        const invalid = await callError(mcp, 'create_post', { content: 'no targets' });
        assert.equal(invalid.status, 400);
        assert.match(invalid.message, /platforms/);
        const other = await t.tenant();
        const theirs = await addAccount(t, other.organizationId, 'threads');
        const foreign = await callError(mcp, 'get_account', { id: theirs.id });
        assert.equal(foreign.status, 404);
      }
    });

    test('the per-key rate limit holds in the stdio process', async () => {
      const limited = await t.tenant({ rateLimit: 2 });
      const mcp = await stdioClient(limited.key, storeEnv(t));
      try {
        await callOk(mcp, 'list_posts');
        await callOk(mcp, 'list_posts');
        const refused = await callError(mcp, 'list_posts');
        assert.equal(refused.status, 429);
      } finally {
        await mcp.close();
      }
    });

    test('without a valid key, or with a service that does not answer, the command stops with one line', async () => {
      const wrong = `sk_${'x'.repeat(43)}`;
      const [missing, unknown, nowhere, unknownRemote] = await Promise.all([
        runCli(['mcp'], { ...storeEnv(t), SOCIALAPI_API_KEY: '' }),
        runCli(['mcp'], { ...storeEnv(t), SOCIALAPI_API_KEY: wrong }),
        runCli(['mcp', '--url', 'http://127.0.0.1:1'], { SOCIALAPI_API_KEY: key }),
        runCli(['mcp', '--url', t.url], { SOCIALAPI_API_KEY: wrong }),
      ]);
      // Against a running service, an unknown key stops the command at start too, with a line
      // naming the key by its prefix only.
      assert.equal(unknownRemote.code, 1);
      assert.match(unknownRemote.stderr, new RegExp(`SOCIALAPI_API_KEY \\(sk_xxxxxxxx…\\) is not a valid key of ${t.url.replace(/\./g, '\\.')}`));
      assert.ok(!unknownRemote.stderr.includes(wrong), 'the whole key is not printed');
      assert.equal(unknownRemote.stdout, '');
      assert.equal(nowhere.code, 1);
      assert.match(nowhere.stderr, /cannot read the API document of http:\/\/127\.0\.0\.1:1/);
      assert.ok(!nowhere.stderr.includes(key), 'the key is not printed');
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /set SOCIALAPI_API_KEY to an API key/);
      assert.equal(missing.stdout, '');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /SOCIALAPI_API_KEY \(sk_xxxxxxxx…\) is not a valid key of this store/);
      assert.ok(!unknown.stderr.includes(wrong), 'the whole key is not printed');
      assert.equal(unknown.stdout, '');
    });
  });
}
