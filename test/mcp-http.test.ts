// The tool server over Streamable HTTP at /mcp, with the SDK's own client, on both stores: one
// tool per operation of the API document, a tool call answering the same data as the HTTP call,
// invalid input and another organization's ids as error results, the per-key rate limit, and
// the transport's own gate (401 with WWW-Authenticate naming the OAuth metadata without a valid key, 403 for an Origin
// that is not allowed, 405 for GET).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toolName } from '../src/mcp/names.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { jpeg } from './fixtures/media.ts';
import { addAccount, createPost, json, startPostsApp, type PostsApp } from './posts-support.ts';
import { callError, callOk, httpClient, operations, type McpClient } from './mcp-support.ts';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

for (const dialect of DIALECTS) {
  describe(`MCP over Streamable HTTP [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let mcp: McpClient;
    let key: string;
    let organizationId: string;

    before(async () => {
      t = await startPostsApp(dialect, { env: { MCP_ALLOWED_ORIGINS: 'https://agent.example' } });
      ({ key, organizationId } = await t.tenant());
      mcp = await httpClient(t, key, {}, 'all');
    });
    after(async () => {
      await mcp?.close();
      await t.close();
    });

    test('with toolsets=all, tools/list has one tool per operation of the API document, with its hints', async () => {
      const ops = await operations(t);
      const { tools } = await mcp.client.listTools();
      // And get_platform_options, which is no operation.
      assert.equal(tools.length, ops.length + 1);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      for (const op of ops) {
        const tool = byName.get(toolName(op.operationId));
        assert.ok(tool, `no tool for ${op.operationId}`);
        assert.equal(tool.inputSchema.type, 'object');
        assert.ok(tool.description?.includes(`${op.method} /api/v1${op.path}`), tool.description);
        // start_connect is a GET that stores a single-use connect state: not read-only.
        if (op.operationId === 'startConnect') assert.deepEqual(tool.annotations, { readOnlyHint: false, destructiveHint: false }, tool.name);
        else if (op.method === 'GET') assert.deepEqual(tool.annotations, { readOnlyHint: true, destructiveHint: false }, tool.name);
        else assert.deepEqual(tool.annotations, { readOnlyHint: false, destructiveHint: true }, tool.name);
      }
      // Media upload takes a URL or base64 (no multipart over MCP); a path parameter is required.
      const upload = byName.get('create_media');
      assert.ok(upload?.inputSchema.properties?.url && upload.inputSchema.properties.base64);
      assert.deepEqual(byName.get('get_post')?.inputSchema.required, ['id']);
      // The platform webhook callbacks and the OAuth callback are not operations, so not tools.
      assert.ok(![...byName.keys()].some((name) => /callback|meta_webhook/.test(name)));
    });

    test('a tool call answers the same data as the HTTP call', async () => {
      const account = await addAccount(t, organizationId, 'threads');
      const created = await createPost(t, key, { content: 'same either way', platforms: [{ accountId: account.id }] });
      assert.equal(created.status, 201);
      const id = created.body.post.id;
      const viaHttp = await (await t.request(`/api/v1/posts/${id}`, { key })).json();
      assert.deepEqual(await callOk(mcp, 'get_post', { id }), viaHttp);
      const accountsHttp = await (await t.request('/api/v1/accounts', { key })).json();
      assert.deepEqual(await callOk(mcp, 'list_accounts'), accountsHttp);

      // A write through a tool is the route's: the post it creates is the one HTTP then shows.
      const viaTool = await callOk<{ post: { id: string; status: string; content: string } }>(mcp, 'create_post', { content: 'made by a tool', platforms: [{ accountId: account.id }] });
      assert.equal(viaTool.post.status, 'draft');
      const shown = (await (await t.request(`/api/v1/posts/${viaTool.post.id}`, { key })).json()) as { post: { content: string } };
      assert.equal(shown.post.content, 'made by a tool');
      // Query parameters reach the route too.
      const drafts = await callOk<{ posts: Array<{ id: string }> }>(mcp, 'list_posts', { status: 'draft' });
      assert.ok(drafts.posts.some((p) => p.id === viaTool.post.id));
    });

    test('the idempotency key of create_post is the route\'s own', async () => {
      const account = await addAccount(t, organizationId, 'threads');
      const args = { content: 'once', platforms: [{ accountId: account.id }], idempotencyKey: `mcp-${dialect}-once` };
      const first = await callOk<{ post: { id: string } }>(mcp, 'create_post', args);
      const again = await callOk<{ post: { id: string } }>(mcp, 'create_post', args);
      assert.equal(again.post.id, first.post.id);
    });

    test('invalid input is an error result with status 400 naming the field', async () => {
      const account = await addAccount(t, organizationId, 'threads');
      const missing = await callError(mcp, 'create_post', { content: 'no targets' });
      assert.equal(missing.status, 400);
      assert.match(missing.message, /platforms/);
      const wrong = await callError(mcp, 'create_post', { content: 'x', platforms: [{ accountId: account.id }], scheduledFor: 'tomorrow' });
      assert.equal(wrong.status, 400);
      assert.match(wrong.message, /scheduledFor/);
      const noId = await callError(mcp, 'get_post', {});
      assert.deepEqual(noId, { status: 400, message: 'id: required' });
      // An unknown tool is a protocol error, as the specification says (not a tool result).
      await assert.rejects(mcp.client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool: no_such_tool/);
      // A query parameter is named as the tool's argument, without the API's "query." prefix.
      const badQuery = await callError(mcp, 'list_inbox_events', { limit: 0 });
      assert.equal(badQuery.status, 400);
      assert.match(badQuery.message, /^limit: /);
    });

    test("another organization's ids are error results with 404, and nothing changes", async () => {
      const other = await t.tenant();
      const theirAccount = await addAccount(t, other.organizationId, 'threads');
      const theirPost = await createPost(t, other.key, { content: 'theirs', platforms: [{ accountId: theirAccount.id }] });
      assert.equal(theirPost.status, 201);
      const id = theirPost.body.post.id;
      assert.equal((await callError(mcp, 'get_post', { id })).status, 404);
      assert.equal((await callError(mcp, 'delete_post', { id })).status, 404);
      assert.equal((await callError(mcp, 'get_account', { id: theirAccount.id })).status, 404);
      const stillThere = await t.request(`/api/v1/posts/${id}`, { key: other.key });
      assert.equal(stillThere.status, 200);
    });

    test('media upload by base64 through a tool', async () => {
      const uploaded = await callOk<{ media: { id: string; mimeType: string } }>(mcp, 'create_media', { base64: jpeg().toString('base64'), fileName: 'red.jpg' });
      assert.equal(uploaded.media.mimeType, 'image/jpeg');
      assert.deepEqual(await callOk(mcp, 'get_media', { id: uploaded.media.id }), await (await t.request(`/api/v1/media/${uploaded.media.id}`, { key })).json());
    });

    test('the per-key rate limit holds for tool calls', async () => {
      const limited = await t.tenant({ rateLimit: 10 });
      const client = await httpClient(t, limited.key);
      try {
        // Connecting spent some of the budget (initialize and what follows it); the tool calls spend the rest.
        const remaining = Number((await t.request('/api/v1/posts', { key: limited.key })).headers.get('ratelimit-remaining'));
        assert.ok(remaining > 0 && remaining < 9, String(remaining));
        for (let i = 0; i < remaining; i++) await callOk(client, 'list_posts');
        const refused = await callError(client, 'list_posts');
        assert.equal(refused.status, 429);
        assert.ok(refused.message.includes('Rate limit'), refused.message);
        assert.ok((refused.retryAfterSeconds ?? -1) >= 0);
        // The HTTP API spends the same budget.
        assert.equal((await t.request('/api/v1/posts', { key: limited.key })).status, 429);
      } finally {
        await client.close();
      }
    });

    test('every MCP request spends the key\'s rate limit: initialize, tools/list and notifications too', async () => {
      const limited = await t.tenant({ rateLimit: 4 });
      const post = async (body: unknown) => {
        const res = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${limited.key}` }, body: JSON.stringify(body) });
        await res.text();
        return res;
      };
      const first = await post(INITIALIZE);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('ratelimit-limit'), '4');
      assert.equal(first.headers.get('ratelimit-remaining'), '3');
      assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
      assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).status, 200);
      assert.equal((await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).headers.get('ratelimit-remaining'), '0');
      const refused = await post({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      // The HTTP API spends the same budget.
      assert.equal((await t.request('/api/v1/posts', { key: limited.key })).status, 429);
    });

    test('401 with WWW-Authenticate without a valid key', async () => {
      const post = (headers: Record<string, string>) => fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...json, accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(INITIALIZE) });
      const none = await post({});
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('www-authenticate'), `Bearer resource_metadata="${t.config.publicBaseUrl}/.well-known/oauth-protected-resource"`);
      assert.match(((await none.json()) as { error: { message: string } }).error.message, /API key/);
      const unknown = await post({ authorization: `Bearer sk_${'x'.repeat(43)}` });
      assert.equal(unknown.status, 401);
      assert.match(unknown.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      await assert.rejects(httpClient(t, null), /Missing API key/);
    });

    test('an Origin that is not allowed is refused with 403; an allowed one passes', async () => {
      const post = (origin: string) =>
        fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, origin }, body: JSON.stringify(INITIALIZE) });
      const evil = await post('https://evil.example');
      assert.equal(evil.status, 403);
      assert.match(((await evil.json()) as { error: { message: string } }).error.message, /MCP_ALLOWED_ORIGINS/);
      assert.equal((await post('https://agent.example')).status, 200);
      assert.equal((await post(new URL(t.url).origin)).status, 200);
      const client = await httpClient(t, key, { origin: 'https://agent.example' });
      assert.ok((await client.client.listTools()).tools.length > 0);
      await client.close();
    });

    test('GET /mcp is 405: the server is stateless and keeps no stream', async () => {
      const res = await fetch(`${t.url}/mcp`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
    });
  });
}
