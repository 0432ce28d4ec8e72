// Retry-safe platform writes (issue 29, item 5) over HTTP against the sandbox, on both stores:
// the same x-request-id twice sends once and answers the first answer again (200); another
// request with the key is 409 IDEMPOTENCY_KEY_REUSED (another body, another comment, another
// operation); while the first runs, 409 REQUEST_IN_PROGRESS; a refusal frees the key. A call
// whose answer never came is settled by the retry: a comment or a message the platform made
// is found and answered (one call in the journal), one it never made is made once; an
// operation that cannot look (a WhatsApp message) answers 409 REQUEST_OUTCOME_UNKNOWN and
// sends nothing. The SIGKILL case is test/idempotent-writes-crash.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { addDmAccount, control as metaControl, subscribe } from './messages-support.ts';
import { addMetaAccount } from './posts-meta-support.ts';
import { createPost, json, settled, startPostsApp, type PostsApp } from './posts-support.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import { connectNumber } from './whatsapp-support.ts';

/** The platform call timeout of this suite's service: a delay past it loses the answer. */
const TIMEOUT_MS = 1500;

interface Answer {
  ok?: boolean;
  id?: string;
  message?: { id: string; platformMessageId: string | null; text: string | null };
  error?: { message: string; code?: string };
}

for (const dialect of DIALECTS) {
  describe(`retry-safe platform writes [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    let fb: { id: string; platformUserId: string };
    let fbPostId: string;

    before(async () => {
      t = await startPostsApp(dialect, { env: { PLATFORM_TIMEOUT_MS: String(TIMEOUT_MS) } });
      t.sandbox.configureApp({ platform: 'facebook', clientId: sandboxApp('meta').clientId, clientSecret: sandboxApp('meta').clientSecret });
      ({ key, organizationId: org } = await t.tenant());
      fb = await addMetaAccount(t, org, 'facebook');
      const res = await createPost(t, key, { content: 'Fresh bread today', publishNow: true, platforms: [{ accountId: fb.id }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      fbPostId = post.targets[0]?.platformPostId ?? '';
      assert.ok(fbPostId, JSON.stringify(post));
    });
    after(async () => {
      await t.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    /** The writes (not GET) that reached the platforms since `seq`, as method, path and status. */
    const writesSince = (seq: number, path: RegExp) =>
      t.sandbox.journal
        .list({ after: seq })
        .filter((e) => e.method !== 'GET' && !e.path.startsWith('/_sandbox') && path.test(e.path))
        .map((e) => [e.method, e.path.replace(/^\/v[\d.]+/, ''), e.status]);
    const api = async (method: string, path: string, body: unknown, requestKey?: string): Promise<{ status: number; body: Answer }> => {
      const headers: Record<string, string> = { ...json, ...(requestKey ? { 'x-request-id': requestKey } : {}) };
      const res = await t.request(`/api/v1${path}`, { key, method, headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Answer };
    };
    const code = (res: { status: number; body: Answer }) => [res.status, res.body.error?.code];
    const theirComment = async (message: string) => {
      const res = await fetch(`${t.url}/sandbox/_sandbox/meta/comments`, { method: 'POST', headers: json, body: JSON.stringify({ objectId: fbPostId, message, from: { name: 'Dana W' } }) });
      assert.equal(res.status, 200);
      return ((await res.json()) as { id: string }).id;
    };
    const ownComments = (text: string) => [...t.sandbox.meta.fbComments.values()].filter((c) => c.fromId === fb.platformUserId && c.message === text);
    const keyRow = (requestKey: string) => t.runtime.deps.store.db.selectFrom('request_keys').selectAll().where('organization_id', '=', org).where('key', '=', requestKey).executeTakeFirst();

    test('a reply sent twice with one key reaches the platform once; the second answer is the first, 200', async () => {
      const theirs = await theirComment('how much?');
      const seq = mark();
      const first = await api('POST', `/inbox/comments/${theirs}/reply`, { accountId: fb.id, text: 'Five euros' }, 'reply-1');
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const again = await api('POST', `/inbox/comments/${theirs}/reply`, { text: 'Five euros', accountId: fb.id }, 'reply-1');
      assert.deepEqual([again.status, again.body], [200, first.body]);
      assert.deepEqual(writesSince(seq, /./), [['POST', `/${theirs}/comments`, 200]]);
      assert.equal(ownComments('Five euros').length, 1);

      // Another body, another comment, another operation: the key is taken.
      assert.deepEqual(code(await api('POST', `/inbox/comments/${theirs}/reply`, { accountId: fb.id, text: 'Six euros' }, 'reply-1')), [409, 'IDEMPOTENCY_KEY_REUSED']);
      const other = await theirComment('and the rye?');
      assert.deepEqual(code(await api('POST', `/inbox/comments/${other}/reply`, { accountId: fb.id, text: 'Five euros' }, 'reply-1')), [409, 'IDEMPOTENCY_KEY_REUSED']);
      assert.deepEqual(code(await api('POST', '/inbox/comments', { accountId: fb.id, platformPostId: fbPostId, text: 'Five euros' }, 'reply-1')), [409, 'IDEMPOTENCY_KEY_REUSED']);
      assert.deepEqual(writesSince(seq, /./).length, 1, 'no call for a reused key');

      // Without a key, nothing changes: two requests, two replies.
      assert.equal((await api('POST', `/inbox/comments/${other}/reply`, { accountId: fb.id, text: 'Four euros' })).status, 200);
      assert.equal((await api('POST', `/inbox/comments/${other}/reply`, { accountId: fb.id, text: 'Four euros' })).status, 200);
      assert.equal(ownComments('Four euros').length, 2);
    });

    test('a request refused before any platform call frees its key; one the platform refused too', async () => {
      const theirs = await theirComment('open sunday?');
      const seq = mark();
      assert.deepEqual(code(await api('POST', `/inbox/comments/${theirs}/reply`, { accountId: 'acc_nope', text: 'Yes' }, 'fixed-later')), [404, undefined]);
      assert.equal(await keyRow('fixed-later'), undefined);
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${theirs}/comments`, method: 'POST', kind: 'error', status: 400, code: 100, message: 'Invalid parameter' });
      assert.deepEqual(code(await api('POST', `/inbox/comments/${theirs}/reply`, { accountId: fb.id, text: 'Yes' }, 'fixed-later')), [400, 'invalid_request']);
      assert.equal(await keyRow('fixed-later'), undefined, 'a refusal made nothing: the key is free');
      const ok = await api('POST', `/inbox/comments/${theirs}/reply`, { accountId: fb.id, text: 'Yes' }, 'fixed-later');
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual(writesSince(seq, /./), [['POST', `/${theirs}/comments`, 400], ['POST', `/${theirs}/comments`, 200]]);
      assert.equal((await keyRow('fixed-later'))?.status, 'done');
    });

    test('while the first request runs, the same key is 409 REQUEST_IN_PROGRESS; one comment', async () => {
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${fbPostId}/comments`, method: 'POST', kind: 'delay', delayMs: 600 });
      const seq = mark();
      const body = { accountId: fb.id, platformPostId: fbPostId, text: 'Open until six' };
      const first = api('POST', '/inbox/comments', body, 'race-1');
      await waitFor(async () => (await keyRow('race-1'))?.call_started_at != null || null, 5_000, 'the marker');
      assert.deepEqual(code(await api('POST', '/inbox/comments', body, 'race-1')), [409, 'REQUEST_IN_PROGRESS']);
      assert.equal((await first).status, 200);
      assert.deepEqual(writesSince(seq, /./), [['POST', `/${fbPostId}/comments`, 200]]);
      assert.equal(ownComments('Open until six').length, 1);
    });

    test('an answer lost to the timeout: the retry finds the comment the platform made and answers it, with no second call', async () => {
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${fbPostId}/comments`, method: 'POST', kind: 'delay', delayMs: TIMEOUT_MS + 700 });
      const seq = mark();
      const body = { accountId: fb.id, platformPostId: fbPostId, text: 'Sourdough is back' };
      assert.deepEqual(code(await api('POST', '/inbox/comments', body, 'lost-1')), [502, 'platform_error']);
      assert.equal((await keyRow('lost-1'))?.status, 'interrupted');
      // The platform still made it, after our client gave up.
      await waitFor(() => ownComments('Sourdough is back').length === 1 || null, 10_000, 'the late comment');
      const retry = await api('POST', '/inbox/comments', body, 'lost-1');
      assert.deepEqual([retry.status, retry.body], [200, { ok: true, id: ownComments('Sourdough is back')[0]?.id }]);
      assert.deepEqual(writesSince(seq, /./), [['POST', `/${fbPostId}/comments`, 200]]);
      assert.deepEqual(await api('POST', '/inbox/comments', body, 'lost-1'), retry, 'answered again from the store');
    });

    test('a 5xx from the platform: the retry looks, finds nothing, and comments once', async () => {
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${fbPostId}/comments`, method: 'POST', kind: 'server_error', status: 500 });
      const seq = mark();
      const body = { accountId: fb.id, platformPostId: fbPostId, text: 'Rye on Fridays' };
      assert.deepEqual(code(await api('POST', '/inbox/comments', body, 'five-1')), [502, 'platform_error']);
      const retry = await api('POST', '/inbox/comments', body, 'five-1');
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      assert.deepEqual(writesSince(seq, /./), [['POST', `/${fbPostId}/comments`, 500], ['POST', `/${fbPostId}/comments`, 200]]);
      assert.deepEqual(ownComments('Rye on Fridays').map((c) => c.id), [retry.body.id]);
    });

    test('a direct message sent twice with one key reaches the platform once; a lost answer is found in the conversation', async () => {
      const dm = await addDmAccount(t, org, 'facebook');
      await subscribe(t, key, dm);
      const written = await metaControl(t, 'messages', { accountId: dm.platformUserId, text: 'Hi, are you open?', from: { name: 'Sam K' } });
      const conversation = await waitFor(
        async () => (await t.runtime.deps.store.db.selectFrom('conversations').select('id').where('account_id', '=', dm.id).where('participant_id', '=', String(written.senderId)).executeTakeFirst()) ?? null,
        10_000,
        'the conversation',
      );
      const path = `/inbox/conversations/${conversation.id}/messages`;
      const inbox = new RegExp(`/${dm.pageId}/messages$`);
      let seq = mark();
      const first = await api('POST', path, { text: 'Until six' }, 'dm-1');
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const again = await api('POST', path, { text: 'Until six' }, 'dm-1');
      assert.deepEqual([again.status, again.body], [200, first.body]);
      assert.equal(writesSince(seq, inbox).length, 1);

      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${dm.pageId}/messages`, method: 'POST', kind: 'delay', delayMs: TIMEOUT_MS + 700 });
      seq = mark();
      assert.deepEqual(code(await api('POST', path, { text: 'See you' }, 'dm-2')), [502, 'platform_error']);
      await waitFor(() => writesSince(seq, inbox).length === 1 || null, 10_000, 'the late send');
      const retry = await api('POST', path, { text: 'See you' }, 'dm-2');
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      assert.equal(retry.body.message?.text, 'See you');
      assert.ok(retry.body.message?.platformMessageId, 'the message found has the platform id');
      assert.deepEqual(writesSince(seq, inbox), [['POST', `/${dm.pageId}/messages`, 200]]);
      const stored = await t.runtime.deps.store.db.selectFrom('messages').select(['id', 'platform_message_id']).where('conversation_id', '=', conversation.id).where('text', '=', 'See you').execute();
      assert.deepEqual(stored.map((row) => ({ ...row })), [{ id: retry.body.message?.id, platform_message_id: retry.body.message?.platformMessageId }], 'stored once');
    });

    test('WhatsApp: one message for one key; after a lost answer, 409 REQUEST_OUTCOME_UNKNOWN and nothing sent again', async () => {
      const account = await connectNumber(t, key, { register: true, pin: '123456' });
      // The template, created once for one key, then approved.
      let seq = mark();
      const template = { name: 'order_ready', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order is ready' }] };
      const created = await api('POST', `/whatsapp/accounts/${account}/templates`, template, 'tpl-1');
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(await api('POST', `/whatsapp/accounts/${account}/templates`, template, 'tpl-1'), { status: 200, body: created.body });
      assert.equal(writesSince(seq, /\/message_templates$/).length, 1);
      const templateId = (created.body as { template?: { id: string } }).template?.id;
      await fetch(`${t.url}/sandbox/_sandbox/whatsapp/templates/review`, { method: 'POST', headers: json, body: JSON.stringify({ templateId, status: 'APPROVED' }) });

      const path = `/whatsapp/accounts/${account}/messages`;
      const body = { to: '15550002222', type: 'template', template: { name: 'order_ready', language: 'en_US' } };
      const sends = /\/messages$/;
      seq = mark();
      const first = await api('POST', path, body, 'wa-1');
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.deepEqual(await api('POST', path, body, 'wa-1'), { status: 200, body: first.body });
      assert.equal(writesSince(seq, sends).length, 1);

      t.sandbox.faults.add({ host: 'graph.facebook.com', path: '/*/messages', method: 'POST', kind: 'server_error', status: 503 });
      seq = mark();
      assert.deepEqual(code(await api('POST', path, body, 'wa-2')), [502, 'platform_error']);
      const retry = await api('POST', path, body, 'wa-2');
      assert.deepEqual(code(retry), [409, 'REQUEST_OUTCOME_UNKNOWN']);
      assert.match(retry.body.error?.message ?? '', /may have been made; nothing was sent again/);
      assert.equal(writesSince(seq, sends).length, 1, 'only the first call');
    });
  });
}
