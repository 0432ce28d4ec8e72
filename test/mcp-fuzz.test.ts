// Every tool of tools/list, called over /mcp with no arguments and then with each of its inputs
// set in turn to hostile values, on both stores, by an organization with no resources: each call
// is an answer (no JSON-RPC failure), and each error result is a client error with a message
// (never a 500), as the routes answer over HTTP. Nothing exists to be changed, so the writes are
// safe to try.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startConnectApp } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import type { TestApp } from './harness/app.ts';
import { httpClient, type McpClient, type ToolError } from './mcp-support.ts';

const HOSTILE: unknown[] = [null, -1, 1e308, true, '', ' ', '../../etc/passwd', 'x'.repeat(5000), "' OR 1=1 --", '%00', '\u0000', ['a', 1], { $ne: 1 }, 'http://127.0.0.1:1/'];

for (const dialect of DIALECTS) {
  describe(`MCP tools with hostile arguments [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let mcp: McpClient;
    before(async () => {
      t = await startConnectApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '1000000000' } });
      const { key } = await t.tenant();
      mcp = await httpClient(t, key, {}, 'all');
    });
    after(async () => {
      await mcp?.close();
      await t.close();
    });

    test('every call answers, and every error is a client error with a message', async () => {
      const { tools } = await mcp.client.listTools();
      let calls = 0;
      for (const tool of tools) {
        const names = Object.keys(tool.inputSchema.properties ?? {});
        const cases: Array<Record<string, unknown>> = [{}];
        for (const name of names) for (const value of HOSTILE) cases.push({ [name]: value });
        for (const args of cases) {
          const what = `${tool.name} ${JSON.stringify(args).slice(0, 120)}`;
          const result = (await mcp.client.callTool({ name: tool.name, arguments: args })) as CallToolResult;
          calls++;
          if (!result.isError) continue;
          const first = result.content[0];
          assert.equal(first?.type, 'text', what);
          const error = JSON.parse(first.type === 'text' ? first.text : '{}') as ToolError;
          assert.ok(error.status >= 400 && error.status < 500, `${what}: ${JSON.stringify(error)}`);
          assert.ok(typeof error.message === 'string' && error.message.length > 0, what);
          assert.ok(!error.message.includes('x'.repeat(200)), `${what}: the hostile input came back`);
        }
      }
      assert.ok(calls > tools.length);
    });
  });
}
