// docs/mcp-tools.md is what `socialapi mcp tools` prints from the routes (a drift fails here),
// and it names a tool for every operation of the served API document.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { toolName } from '../src/mcp/names.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { ROOT, runCli } from './harness/cli.ts';
import { operations } from './mcp-support.ts';

describe('docs/mcp-tools.md', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('sqlite');
  });
  after(() => t.close());

  test('is current, and lists one tool per operation', async () => {
    const printed = await runCli(['mcp', 'tools'], {});
    assert.equal(printed.code, 0, printed.stderr);
    for (const op of await operations(t)) assert.ok(printed.stdout.includes(`| \`${toolName(op.operationId)}\` |`), `${op.operationId} is missing`);
    const file = join(ROOT, 'docs/mcp-tools.md');
    if (process.env.UPDATE_MCP_TOOLS === '1') writeFileSync(file, printed.stdout);
    assert.equal(readFileSync(file, 'utf8'), printed.stdout, 'docs/mcp-tools.md is stale: run `node bin/socialapi.js mcp tools > docs/mcp-tools.md`');
  });
});
