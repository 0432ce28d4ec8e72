// "Comments and inbox (sandbox)" in docs/guides/comments.md, as a newcomer runs it after "Your first posts":
// instagram connected through the consent page, the photo post published by the publishing guide's own
// blocks, then its comment blocks as they are: an endpoint registered, the account subscribed,
// a sandbox person's comment answered, hidden, listed and deleted. comment.received reaches the
// receiver, and each write reached the sandbox. On SQLite and PostgreSQL.
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
  describe(`guide: comments and inbox [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let receiver: Receiver;
    let key: string;
    let instagram: string;
    before(async () => {
      t = await startConnectApp(dialect, { worker: true, env: { LOG_LEVEL: 'silent' } });
      receiver = await new Receiver().start();
      ({ key } = await t.tenant());
      const walk = await walkConnect(t, key, 'instagram', { redirectUrl: CLIENT_REDIRECT });
      instagram = walk.location?.searchParams.get('accountId') ?? '';
      assert.ok(instagram, 'instagram connected');
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    test('the comment blocks answer, hide, list and delete a sandbox comment, and comment.received arrives', async () => {
      const examples = readmeExamples();
      const env = { BASE: t.url, KEY: key, INSTAGRAM: instagram, RECEIVER: receiver.url };
      const published = await bash(['set -euo pipefail', examples.get('setup') ?? '', examples.get('instagram') ?? ''].join('\n'), env);
      assert.equal(published.code, 0, published.stderr);
      const postId = (JSON.parse(published.stdout.trim().split('\n').at(-1) ?? '{}') as { post: { id: string } }).post.id;
      const target = await waitFor(
        async () => {
          const body = (await (await t.request(`/api/v1/posts/${postId}`, { key })).json()) as { post: { status: string; targets: Array<{ platformPostId: string | null }> } };
          return body.post.status === 'published' ? body.post.targets[0] : null;
        },
        60_000,
        'the instagram post to be published',
        100,
      );

      const run = await bash(['set -euo pipefail', examples.get('comments_setup') ?? '', examples.get('comments') ?? ''].join('\n'), { ...env, POST: postId });
      assert.equal(run.code, 0, `the guide's comment blocks failed:\n${run.stderr}\n${run.stdout}`);
      const answers = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const [hook, subscription, reply, hide, list, removed] = answers;
      assert.equal(answers.length, 6, run.stdout);
      assert.ok((hook?.webhook as { secret?: string }).secret?.startsWith('whsec_'));
      assert.equal(subscription?.subscribed, true);
      assert.equal(reply?.ok, true);
      assert.deepEqual(hide, { ok: true });
      assert.deepEqual(removed, { ok: true });
      const comments = (list as { comments: Array<{ id: string; text: string; username: string; hidden: boolean; parentId: string | null; isOwn: boolean }> }).comments;
      const theirs = comments.find((c) => c.text === 'Is it gluten free?');
      assert.ok(theirs, JSON.stringify(comments));
      assert.deepEqual([theirs.username, theirs.hidden, theirs.isOwn], ['dana.w', true, false]);
      assert.ok(comments.some((c) => c.parentId === theirs.id && c.text === 'It is, every loaf.' && c.isOwn));

      // What reached the sandbox: the reply, the hide and the delete of that comment.
      const calls = t.sandbox.journal.list({ path: `/${theirs.id}` }).map((e) => `${e.method} ${e.path.replace(/^\/v[\d.]+/, '')} ${JSON.stringify(e.body ?? {})}`);
      assert.ok(calls.some((c) => c.startsWith(`POST /${theirs.id}/replies `) && c.includes('It is, every loaf.')), calls.join('\n'));
      assert.ok(calls.some((c) => c.startsWith(`POST /${theirs.id} `) && c.includes('"hide":"true"')), calls.join('\n'));
      assert.ok(calls.some((c) => c.startsWith(`DELETE /${theirs.id} `)), calls.join('\n'));

      const delivered = await waitFor(
        () => receiver.received.map((r) => JSON.parse(r.body) as { event: string; data: { comment: { id: string }; postId: string; platformPostId: string } }).find((e) => e.event === 'comment.received') ?? null,
        30_000,
        'comment.received at the receiver',
      );
      assert.deepEqual([delivered.data.comment.id, delivered.data.postId, delivered.data.platformPostId], [theirs.id, postId, target?.platformPostId]);
    });
  });
}
