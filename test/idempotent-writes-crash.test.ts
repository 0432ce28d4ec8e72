// Retry-safe platform writes across a crash (issue 29, item 5), on both stores. The API runs as
// `socialapi serve --no-worker` in a process of its own, the platforms in the sandbox in this
// test's process (PLATFORM_API_BASE). A new comment's platform call is slowed down and the
// server is killed with SIGKILL while it is on its way: the platform still makes the comment, as
// a platform does for a request it has received, and the service never learns the answer. The
// client then retries with the same x-request-id on a server started again on the same store:
// while the call could still be running it is 409 REQUEST_IN_PROGRESS; after that, the retry
// finds the comment on the platform and answers it. One call reached the platform.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore, type Store } from '../src/db/database.ts';
import { parseConfig } from '../src/config.ts';
import { createSealer } from '../src/lib/crypto.ts';
import { newId } from '../src/lib/ids.ts';
import { systemClock } from '../src/lib/clock.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import { createKey } from '../src/modules/keys/service.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { freePort, removeDataDirs, sharedSettings, startApiNode, startSandboxServer, type Node, type SandboxServer } from './harness/nodes.ts';
import { insertAccount, PUBLISHING_SCOPES } from './harness/sandbox-accounts.ts';
import { waitFor } from './harness/wait.ts';

/** The servers' platform call timeout: a call cut off is settled this plus 5 s after it began. */
const TIMEOUT_MS = 2000;
const CALL_DELAY_MS = 1500;

for (const dialect of DIALECTS) {
  describe(`retry-safe platform writes: SIGKILL during the call [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase;
    let sandbox: SandboxServer;
    let store: Store | undefined;
    const nodes: Node[] = [];

    before(async () => {
      database = await createTestDatabase(dialect);
      sandbox = await startSandboxServer();
    });
    after(async () => {
      for (const node of nodes) await node.process.stop('SIGKILL');
      await store?.close();
      await sandbox.close();
      await database.drop();
      removeDataDirs();
    });

    test('the retry after the kill finds the comment the platform made; one call, one comment', { timeout: 120_000 }, async () => {
      const port = await freePort();
      // One API node at a time: no Redis.
      const shared: Record<string, string> = { ...sharedSettings(database.url, '', sandbox.url, `http://127.0.0.1:${port}`), PLATFORM_TIMEOUT_MS: String(TIMEOUT_MS) };
      delete shared.REDIS_URL;
      const first = await startApiNode('api-1', shared, port, { DATA_DIR: database.dataDir });
      nodes.push(first);
      const organizationId = first.organizationId ?? '';
      assert.match(organizationId, /^org_/);
      store = openStore(parseConfig({ DATABASE_URL: database.url, DATA_DIR: database.dataDir }).database);
      const { db } = store;
      const { key } = await createKey(db, systemClock, organizationId, { name: 'crash' });

      // A Page with a post of its own, connected as the service's facebook account.
      const { user, pages } = sandbox.state.addFacebookUser({ pages: [{}] });
      const page = pages[0];
      assert.ok(page);
      const token = `fb-crash-${newId('account').slice(4)}`;
      sandbox.state.issueToken({ value: token, platform: 'facebook', type: 'page', clientId: sandboxApp('meta').clientId, subjectId: page.id, userId: user.id, scopes: PUBLISHING_SCOPES.facebook, declined: [], pageIds: [page.id], ttlSeconds: null, longLived: true });
      const sealer = createSealer(Buffer.from(shared.ENCRYPTION_KEY ?? '', 'hex'));
      const accountId = await insertAccount(db, sealer, { organizationId, platform: 'facebook', platformUserId: page.id, token, scopes: PUBLISHING_SCOPES.facebook, metadata: { login: 'facebook' }, now: Date.now() });
      const feed = await fetch(`${sandbox.url}/graph.facebook.com/v24.0/${page.id}/feed`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Open on Sunday' }) });
      assert.equal(feed.status, 200, await feed.clone().text());
      const postId = ((await feed.json()) as { id: string }).id;

      const text = `Yes, from nine (${dialect})`;
      const request = (url: string) =>
        fetch(`${url}/api/v1/inbox/comments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'comment-crash-1' },
          body: JSON.stringify({ accountId, platformPostId: postId, text }),
        });
      const calls = () => sandbox.state.journal.list().filter((e) => e.method === 'POST' && e.path.endsWith(`/${postId}/comments`));
      const ours = () => [...sandbox.state.meta.fbComments.values()].filter((c) => c.fromId === page.id && c.message === text);

      sandbox.state.faults.add({ host: 'graph.facebook.com', path: `/${postId}/comments`, method: 'POST', kind: 'delay', delayMs: CALL_DELAY_MS });
      const cut = request(first.url ?? '').then(
        (res) => `answered ${res.status}`,
        () => 'cut off',
      );
      // The marker is committed before the call goes out; then the server dies mid-call.
      await waitFor(async () => (await db.selectFrom('request_keys').select('call_started_at').where('key', '=', 'comment-crash-1').executeTakeFirst())?.call_started_at ?? null, 10_000, 'the marker', 20);
      await new Promise((resolve) => setTimeout(resolve, 300));
      first.process.child.kill('SIGKILL');
      await first.process.stop();
      assert.equal(await cut, 'cut off');
      // The platform finishes the call the dead server made.
      await waitFor(() => ours().length === 1 || null, 10_000, 'the comment on the platform');
      const row = await db.selectFrom('request_keys').select(['status', 'answer_body']).where('key', '=', 'comment-crash-1').executeTakeFirstOrThrow();
      assert.deepEqual({ ...row }, { status: 'running', answer_body: null }, 'the service never learned the answer');

      const second = await startApiNode('api-2', shared, port, { DATA_DIR: database.dataDir });
      nodes.push(second);
      // Until the call could no longer be running, the retry is told to wait (409 REQUEST_IN_PROGRESS).
      const settledAnswer = await waitFor(
        async () => {
          const res = await request(second.url ?? '');
          const body = (await res.json()) as { ok?: boolean; id?: string; error?: { code?: string } };
          return body.error?.code === 'REQUEST_IN_PROGRESS' ? null : { status: res.status, body };
        },
        20_000,
        'the retry to settle',
        250,
      );
      assert.deepEqual(settledAnswer, { status: 200, body: { ok: true, id: ours()[0]?.id } });
      assert.equal(calls().length, 1, 'one call reached the platform');
      assert.equal(ours().length, 1, 'one comment');
      // Settled for good: answered again from the store.
      const again = await request(second.url ?? '');
      assert.deepEqual([again.status, await again.json()], [200, settledAnswer.body]);
      assert.equal(calls().length, 1);
    });
  });
}
