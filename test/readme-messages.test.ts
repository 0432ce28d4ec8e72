// "Direct messages (sandbox)" in docs/guides/direct-messages.md, as a newcomer runs it after "Comments and inbox":
// instagram and the facebook Page connected through the consent page, the comments section's
// endpoint registered for the receiver, then the messages block as it is. The receiver checks
// every signature with the secret printed at registration, as the webhooks guide's receiver does, so
// the block must add the message events to that one endpoint (a second endpoint on the same URL
// signs with a secret the receiver does not have). On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { TestApp } from './harness/app.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, readmeExamples } from './harness/readme.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';

for (const dialect of DIALECTS) {
  describe(`guide: direct messages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let receiver: Receiver;
    let key: string;
    const accounts: Record<string, string> = {};
    before(async () => {
      t = await startConnectApp(dialect, { worker: true, env: { LOG_LEVEL: 'silent' } });
      receiver = await new Receiver().start();
      ({ key } = await t.tenant());
      const books = [...t.sandbox.people.pages.values()].find((page) => page.name === 'Sandbox Books')?.id ?? '';
      for (const platform of ['instagram', 'facebook']) {
        const walk = await walkConnect(t, key, platform, { redirectUrl: CLIENT_REDIRECT }, platform === 'facebook' ? { untick: [books] } : {});
        accounts[platform] = walk.location?.searchParams.get('accountId') ?? '';
        assert.ok(accounts[platform], `${platform} connected`);
      }
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    test("the block puts the message events on the comments section's endpoint, and a person's message reaches the receiver signed with its secret", async () => {
      const examples = readmeExamples();
      const block = examples.get('comments_messages') ?? '';
      assert.ok(block, 'the guide marks the direct messages block');
      const env = { BASE: t.url, KEY: key, INSTAGRAM: accounts.instagram ?? '', FACEBOOK: accounts.facebook ?? '', RECEIVER: receiver.url };
      const setup = await bash(['set -euo pipefail', examples.get('comments_setup') ?? ''].join('\n'), env);
      assert.equal(setup.code, 0, setup.stderr);
      const registered = JSON.parse(setup.stdout.trim().split('\n')[0] ?? '{}') as { webhook: { id: string; secret: string } };
      receiver.secret = registered.webhook.secret;

      // What the comments section left in the newcomer's shell: its helpers.
      const helpers = (examples.get('comments_setup') ?? '').split('\n').filter((line) => /^(json\(\)|get\(\)|send\(\))/.test(line)).join('\n');
      const run = await bash([helpers, 'set -euo pipefail', block].join('\n'), env);
      assert.equal(run.code, 0, `the guide's direct messages block failed:\n${run.stderr}\n${run.stdout}`);
      const [patched] = run.stdout.trim().split('\n');
      const webhook = (JSON.parse(patched ?? '{}') as { webhook: { id: string; events: string[] } }).webhook;
      assert.equal(webhook.id, registered.webhook.id);
      assert.ok(['comment.received', 'message.received', 'message.sent'].every((e) => webhook.events.includes(e)), webhook.events.join());
      const endpoints = (await (await t.request('/api/v1/webhooks', { key })).json()) as { webhooks: Array<{ url: string }> };
      assert.deepEqual(endpoints.webhooks.map((w) => w.url), [receiver.url], 'one endpoint for the receiver');

      type Event = { event: string; data: { text?: string | null } };
      const received = await waitFor(
        () => receiver.received.map((r) => ({ r, e: JSON.parse(r.body) as Event })).find(({ e }) => e.event === 'message.received') ?? null,
        15_000,
        'message.received at the receiver',
      );
      assert.equal(received.e.data.text, 'Do you deliver?');
      assert.equal(received.r.verified, true);
      await waitFor(() => receiver.received.some((r) => (JSON.parse(r.body) as Event).event === 'message.sent') || null, 15_000, 'message.sent at the receiver');
      assert.deepEqual(receiver.received.filter((r) => r.verified !== true).map((r) => r.body), [], 'every delivery verifies with the secret');
      const sent = t.sandbox.journal.list({ method: 'POST' }).filter((e) => e.path.endsWith('/messages') && JSON.stringify(e.body ?? {}).includes('Yes, within 5 km.'));
      assert.equal(sent.length, 1, 'the answer reached the platform once');
    });
  });
}
