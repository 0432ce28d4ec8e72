// A worker killed with SIGKILL in the middle of a delivery loses nothing: after its lease runs
// out another worker sends the delivery again, with the same X-Idempotency-Key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { spawnCli, type Spawned } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';

for (const dialect of DIALECTS) {
  describe(`webhook delivery survives a killed worker [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let receiver: Receiver;
    const workers: Spawned[] = [];
    before(async () => {
      t = await startApp(dialect);
      receiver = await new Receiver().start();
    });
    after(async () => {
      await Promise.all(workers.map((w) => w.stop('SIGKILL')));
      await receiver.stop();
      await t.close();
    });

    test('SIGKILL mid-delivery: delivered again by another worker, same key', async () => {
      const env = { DATABASE_URL: t.database.url, DATA_DIR: t.database.dataDir, JOB_LEASE_MS: '1000', JOB_POLL_INTERVAL_MS: '100', LOG_LEVEL: 'info' };
      const { key } = await t.tenant({ rateLimit: 1_000_000 });
      const created = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url }) });
      const { webhook } = (await created.json()) as { webhook: { id: string } };
      receiver.script.push({ hang: true });

      const first = spawnCli(['worker'], env);
      workers.push(first);
      await first.waitFor(/worker started/, 30_000);
      await t.request(`/api/v1/webhooks/${webhook.id}/test`, { key, method: 'POST' });
      await receiver.waitFor(1, 15_000).catch((error: unknown) => {
        throw new Error(`${String(error)}; the worker printed:\n${first.output()}`);
      });
      first.child.kill('SIGKILL');
      await first.stop();

      const second = spawnCli(['worker'], env);
      workers.push(second);
      const [a, b] = await receiver.waitFor(2, 15_000).catch((error: unknown) => {
        throw new Error(`${String(error)}; the second worker printed:\n${second.output()}`);
      });
      assert.equal(b?.headers['x-idempotency-key'], a?.headers['x-idempotency-key']);
      assert.equal(b?.body, a?.body);
      await waitFor(async () => {
        const res = await t.request(`/api/v1/webhooks/${webhook.id}/deliveries`, { key });
        const { deliveries } = (await res.json()) as { deliveries: Array<{ status: string }> };
        return deliveries[0]?.status === 'delivered';
      }, 10_000, 'the delivery to be recorded as delivered');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.received.length, 2, 'at most one duplicate');
    });
  });
}
