// The copy-paste receiver in README.md, run as it is, receives and verifies a real delivery and
// refuses a forged one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { ROOT } from './harness/cli.ts';
import { waitFor } from './harness/wait.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

describe('README receiver', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('sqlite', { worker: true });
  });
  after(() => t.close());

  test('verifies a real delivery and refuses a forged one', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const code = /## Receiving webhooks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(code, 'README has the receiver');
    const file = join(mkdtempSync(join(tmpdir(), 'receiver-')), 'receiver.mjs');
    writeFileSync(file, code);

    const { key } = await t.tenant();
    const port = await freePort();
    const created = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `http://127.0.0.1:${port}/` }) });
    const { webhook } = (await created.json()) as { webhook: { id: string; secret: string } };

    const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: webhook.secret }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status === 401, () => false), 5000, 'the receiver to listen');
      await t.request(`/api/v1/webhooks/${webhook.id}/test`, { key, method: 'POST' });
      await waitFor(() => output.includes('webhook.test'), 5000, 'the receiver to log the event');
      type Listing = { deliveries: Array<{ status: string }> };
      await waitFor(async () => ((await (await t.request(`/api/v1/webhooks/${webhook.id}/deliveries`, { key })).json()) as Listing).deliveries[0]?.status === 'delivered');
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'x-socialapi-timestamp': String(Math.floor(Date.now() / 1000)), 'x-socialapi-signature': 'ab'.repeat(32) },
        body: '{"event":"post.published"}',
      });
      assert.equal(forged.status, 401);
    } finally {
      child.kill();
    }
  });
});
