// The copy-paste receiver of docs/guides/webhooks.md, run as it is, receives and verifies a real delivery,
// refuses a forged one, and keeps receiving across a secret rotation: on the old secret during the
// grace, then on the new one.
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

describe('webhooks guide receiver', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('sqlite', { worker: true });
  });
  after(() => t.close());

  test('verifies a real delivery and refuses a forged one; across a secret rotation it loses no event', async () => {
    const guide = readFileSync(join(ROOT, 'docs/guides/webhooks.md'), 'utf8');
    const code = /```js\n([\s\S]*?)```/.exec(guide)?.[1];
    assert.ok(code, 'the webhooks guide has the receiver');
    const file = join(mkdtempSync(join(tmpdir(), 'receiver-')), 'receiver.mjs');
    writeFileSync(file, code);

    const { key } = await t.tenant();
    const port = await freePort();
    const created = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `http://127.0.0.1:${port}/` }) });
    const { webhook } = (await created.json()) as { webhook: { id: string; secret: string } };

    const start = (secret: string) => {
      const started = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] });
      started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return started;
    };
    let output = '';
    let child = start(webhook.secret);
    type Listing = { deliveries: Array<{ id: string; status: string }> };
    const delivered = async (deliveryId: string) => {
      await waitFor(async () => ((await (await t.request(`/api/v1/webhooks/${webhook.id}/deliveries`, { key })).json()) as Listing).deliveries.find((d) => d.id === deliveryId)?.status === 'delivered', 5000, `delivery ${deliveryId}`);
    };
    const sendTest = async () => ((await (await t.request(`/api/v1/webhooks/${webhook.id}/test`, { key, method: 'POST' })).json()) as { deliveryId: string }).deliveryId;
    const logged = () => output.split('\n').filter((line) => line.startsWith('webhook.test')).length;
    try {
      await waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status === 401, () => false), 5000, 'the receiver to listen');
      await delivered(await sendTest());
      assert.equal(logged(), 1);
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'x-socialapi-timestamp': String(Math.floor(Date.now() / 1000)), 'x-socialapi-signature': 'ab'.repeat(32), 'x-socialapi-signature-previous': 'cd'.repeat(32) },
        body: '{"event":"post.published"}',
      });
      assert.equal(forged.status, 401);

      // Rotated: the receiver still on the old secret accepts the next delivery (its signature is
      // in X-SocialAPI-Signature-Previous), and once restarted with the new secret, the one after.
      const rotated = await t.request(`/api/v1/webhooks/${webhook.id}/secret`, { key, method: 'POST' });
      const fresh = ((await rotated.json()) as { webhook: { secret: string } }).webhook.secret;
      await delivered(await sendTest());
      assert.equal(logged(), 2);
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
      child = start(fresh);
      await waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status === 401, () => false), 5000, 'the restarted receiver to listen');
      await delivered(await sendTest());
      assert.equal(logged(), 3);
    } finally {
      child.kill();
    }
  });
});
