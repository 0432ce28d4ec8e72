// The README's five-minute tour, as a newcomer follows it, on SQLite and PostgreSQL: reddit
// connected through the sandbox's consent page, the tour's webhook block run as it is (only the
// receiver's port 8080 replaced by a free one), the receiver of docs/guides/webhooks.md started
// with the secret it printed, then the tour's post block as it is: the post ends `published` and
// the receiver prints `post.published` with its id.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TestApp } from './harness/app.ts';
import { CLIENT_REDIRECT, freePort, startConnectApp, walkConnect } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, examplesIn, readDoc } from './harness/readme.ts';
import { waitFor } from './harness/wait.ts';

for (const dialect of DIALECTS) {
  describe(`README tour [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let key: string;
    let reddit: string;
    let receiver: ChildProcess | undefined;
    before(async () => {
      t = await startConnectApp(dialect, { worker: true, env: { LOG_LEVEL: 'silent' } });
      ({ key } = await t.tenant());
      const walk = await walkConnect(t, key, 'reddit', { redirectUrl: CLIENT_REDIRECT });
      reddit = walk.location?.searchParams.get('accountId') ?? '';
      assert.ok(reddit, `reddit connected: ${walk.location?.toString() ?? ''}`);
    });
    after(async () => {
      receiver?.kill();
      await t.close();
    });

    test('connect, listen, post, see it published, receive the webhook', async () => {
      const blocks = examplesIn('README.md');
      const hookBlock = blocks.get('tour_webhook');
      const postBlock = blocks.get('tour_post');
      assert.ok(hookBlock && postBlock, 'the README marks the tour_webhook and tour_post blocks');
      const port = await freePort();
      const env = { BASE: t.url, KEY: key, REDDIT: reddit };

      const hook = await bash(`set -euo pipefail\n${hookBlock.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}`, env);
      assert.equal(hook.code, 0, `the tour's webhook block failed:\n${hook.stderr}\n${hook.stdout}`);
      const secret = (JSON.parse(hook.stdout) as { webhook: { secret: string } }).webhook.secret;
      assert.match(secret, /^whsec_/);

      const code = /```js\n([\s\S]*?)```/.exec(readDoc('docs/guides/webhooks.md'))?.[1];
      assert.ok(code, 'the webhooks guide has the receiver');
      const file = join(mkdtempSync(join(tmpdir(), 'tour-')), 'receiver.mjs');
      writeFileSync(file, code);
      let printed = '';
      receiver = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'inherit'] });
      receiver.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      await waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status === 401, () => false), 5000, 'the receiver to listen');

      const run = await bash(`set -euo pipefail\n${postBlock}`, env);
      assert.equal(run.code, 0, `the tour's post block failed:\n${run.stderr}\n${run.stdout}`);
      const { post } = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as { post: { id: string; status: string; targets: Array<{ url: string | null; platformPostId: string | null }> } };
      assert.equal(post.status, 'published', run.stdout);
      assert.ok(post.targets[0]?.platformPostId && post.targets[0].url, JSON.stringify(post));
      await waitFor(() => printed.includes('post.published') && printed.includes(post.id), 10_000, 'the receiver to print post.published');
    });
  });
}
