// Lean tool lists (issue 33, item 6), measured on the real server over /mcp with the SDK's
// client: with defaults an agent gets at most 25 KB of tools and no schema over 4 KB; each
// toolset is reachable by `?toolsets=`, and together they hold every operation; platform options
// come by reference from get_platform_options; descriptions and errors say what the tool takes.
// And `socialapi mcp --toolsets` on stdio, with its refusal of an unknown name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toolName } from '../src/mcp/names.ts';
import type { OpenApiDocument } from '../src/mcp/openapi-shape.ts';
import { toolsFromOpenApi } from '../src/mcp/tools.ts';
import { runCli } from './harness/cli.ts';
import { callError, callOk, httpClient, operations, stdioClient, storeEnv, type McpClient } from './mcp-support.ts';
import { startPostsApp, type PostsApp } from './posts-support.ts';

const KB = 1000;
const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('MCP toolsets', () => {
  let t: PostsApp;
  let key: string;
  let toolsets: string[];
  let mcp: McpClient;

  before(async () => {
    t = await startPostsApp('sqlite');
    ({ key } = await t.tenant());
    const doc = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
    toolsets = [...new Set(toolsFromOpenApi(doc).map((tool) => tool.toolset))];
    mcp = await httpClient(t, key);
  });
  after(async () => {
    await mcp?.close();
    await t.close();
  });

  test('with defaults: at most 25 KB of tools, no schema over 4 KB, the day-to-day tools listed', async () => {
    const listed = await mcp.client.listTools();
    const bytes = size({ tools: listed.tools });
    assert.ok(bytes <= 25 * KB, `the default tool list is ${bytes} bytes`);
    for (const tool of listed.tools) assert.ok(size(tool.inputSchema) <= 4 * KB, `${tool.name}: ${size(tool.inputSchema)} bytes`);
    const names = listed.tools.map((tool) => tool.name);
    for (const name of ['start_connect', 'list_accounts', 'create_media', 'create_post', 'get_post', 'list_conversations', 'send_conversation_message', 'get_platform_options']) {
      assert.ok(names.includes(name), `${name} is not listed by default`);
    }
    assert.ok(!names.includes('create_campaign'), 'ads are not listed by default');
    // The server's instructions say how to reach the others.
    assert.match(mcp.client.getInstructions() ?? '', /the others \([^)]*ads[^)]*\) are listed when the client asks for them/);
  });

  test('every operation is reachable through some toolset, and no schema of any is over 4 KB', async () => {
    const reached = new Set<string>();
    for (const toolset of toolsets) {
      const client = await httpClient(t, key, {}, toolset);
      try {
        for (const tool of (await client.client.listTools()).tools) {
          reached.add(tool.name);
          assert.ok(size(tool.inputSchema) <= 4 * KB, `${tool.name}: ${size(tool.inputSchema)} bytes`);
        }
      } finally {
        await client.close();
      }
    }
    const expected = [...(await operations(t)).map((op) => toolName(op.operationId)), 'get_platform_options'];
    assert.deepEqual([...reached].sort(), expected.sort());
    const all = await httpClient(t, key, {}, 'all');
    try {
      assert.deepEqual((await all.client.listTools()).tools.map((tool) => tool.name).sort(), expected.sort());
    } finally {
      await all.close();
    }
  });

  test('several toolsets at once; an unknown one is a 400 naming it', async () => {
    const client = await httpClient(t, key, {}, 'webhooks, analytics');
    try {
      const names = (await client.client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes('create_webhook') && names.includes('get_best_time'));
      assert.ok(!names.includes('create_post'));
    } finally {
      await client.close();
    }
    await assert.rejects(httpClient(t, key, {}, 'postz'), /toolsets: unknown toolset postz \(did you mean posts\?\)/);
  });

  test('platform options by reference: create_post refers to get_platform_options, which answers one platform', async () => {
    const { tools } = await mcp.client.listTools();
    const createPost = JSON.stringify(tools.find((tool) => tool.name === 'create_post')?.inputSchema);
    assert.ok(!createPost.includes('subreddit'), 'no platform schema inside create_post');
    assert.match(createPost, /call get_platform_options with the platform for its keys/);
    const reddit = await callOk<{ platform: string; platformSpecificData: { properties: Record<string, unknown> } }>(mcp, 'get_platform_options', { platform: 'reddit' });
    assert.equal(reddit.platform, 'reddit');
    assert.ok(reddit.platformSpecificData.properties.subreddit);
    const wrong = await callError(mcp, 'get_platform_options', { platform: 'myspace' });
    assert.equal(wrong.status, 400);
    assert.match(wrong.message, /^platform: must be one of reddit, /);
  });

  test('descriptions say what the tool takes and does', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.ok(!/multipart/i.test(byName.get('create_media')?.description ?? ''), byName.get('create_media')?.description);
    assert.equal(byName.get('start_connect')?.annotations?.readOnlyHint, false);
    assert.equal(byName.get('list_accounts')?.annotations?.readOnlyHint, true);
  });

  test('errors name the argument, without the API\'s query, path or header prefixes', async () => {
    assert.match((await callError(mcp, 'list_posts', { limit: 0 })).message, /^limit: /);
    const long = await callError(mcp, 'create_post', { content: 'x', platforms: [{ accountId: 'acc_x' }], idempotencyKey: 'k'.repeat(300) });
    assert.equal(long.status, 400);
    assert.match(long.message, /^idempotencyKey: /);
  });

  test('socialapi mcp --toolsets lists those; an unknown one stops the command with one line', async () => {
    const stdio = await stdioClient(key, storeEnv(t), ['--toolsets', 'media']);
    try {
      assert.deepEqual((await stdio.client.listTools()).tools.map((tool) => tool.name).sort(), ['create_media', 'get_media', 'list_media']);
    } finally {
      await stdio.close();
    }
    const refused = await runCli(['mcp'], { ...storeEnv(t), SOCIALAPI_API_KEY: key, SOCIALAPI_MCP_TOOLSETS: 'ads,medias' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^socialapi: toolsets: unknown toolset medias \(did you mean media\?\)/);
  });
});
