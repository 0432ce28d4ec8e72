// Meta's webhook callback: the verification handshake with the verify token, POSTs checked against
// X-Hub-Signature-256 with the app secret (401 and nothing stored otherwise), stored raw once and
// answered 200, then picked up by the platform_event.process job (test/inbox-events.test.ts
// follows comments and mentions on to the inbox and the outgoing events).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { startConnectApp } from './harness/connect.ts';
import { waitFor } from './harness/wait.ts';
import type { TestApp } from './harness/app.ts';
import { sendWebhook, type SandboxState } from '../src/sandbox/index.ts';
import { SANDBOX_VERIFY_TOKEN } from '../src/platforms/context.ts';
import { sandboxApp } from '../src/platforms/registry.ts';

const PATH = '/api/v1/platform-webhooks/meta';
const sign = (body: string, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

for (const dialect of DIALECTS) {
  describe(`inbound platform webhooks (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    before(async () => {
      t = await startConnectApp(dialect, { worker: true });
    });
    after(() => t.close());

    const stored = () => t.runtime.deps.store.db.selectFrom('platform_webhook_events').selectAll().execute();
    const post = (body: string, signature?: string) =>
      fetch(`${t.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) }, body });

    test('the GET handshake echoes hub.challenge for the right verify token only', async () => {
      const ok = await fetch(`${t.url}${PATH}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${SANDBOX_VERIFY_TOKEN}`);
      assert.equal(ok.status, 200);
      assert.equal(await ok.text(), '1158201444');
      const wrong = await fetch(`${t.url}${PATH}?hub.mode=subscribe&hub.challenge=1&hub.verify_token=nope`);
      assert.equal(wrong.status, 403);
    });

    test('unsigned or wrongly signed POSTs are 401 and nothing is stored', async () => {
      const body = JSON.stringify({ object: 'page', entry: [] });
      assert.equal((await post(body)).status, 401);
      assert.equal((await post(body, sign(body, 'not-the-secret'))).status, 401);
      assert.equal((await post(body, sign(`${body} `, sandboxApp('meta').clientSecret))).status, 401);
      assert.equal((await stored()).length, 0);
    });

    test('a signed POST is stored raw once, answered 200, and processed by the job', async () => {
      // Meta escapes / and non-ASCII; the signature covers exactly these bytes.
      const body = '{"object":"page","entry":[{"id":"1","time":1,"changes":[{"field":"feed","value":{"message":"caf\\u00e9 \\/ ok"}}]}]}';
      const res = await post(body, sign(body, sandboxApp('meta').clientSecret));
      assert.equal(res.status, 200);
      assert.equal((await post(body, sign(body, sandboxApp('meta').clientSecret))).status, 200);
      const rows = await stored();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.body, body);
      assert.equal(rows[0]?.object, 'page');
      const done = await waitFor(async () => (await stored()).find((r) => r.status !== 'pending'), 5000, 'the job');
      // A feed change that is no added comment is understood and left alone.
      assert.equal(done.status, 'processed');
      assert.match(done.note ?? '', /ignored: page\.feed/);
    });

    test("a notification the sandbox signs with the Instagram Login app's secret is accepted too", async () => {
      const body = JSON.stringify({ object: 'instagram', entry: [{ id: '2', time: 2, changes: [{ field: 'comments', value: { id: 'c1', text: 'hi' } }] }] });
      assert.equal((await post(body, sign(body, sandboxApp('instagram').clientSecret))).status, 200);
    });

    test('a real delivery from the sandbox after an app subscription reaches the callback', async () => {
      t.sandbox.webhooks.put({
        appId: sandboxApp('meta').clientId,
        object: 'page',
        callbackUrl: `${t.url}${PATH}`,
        fields: ['feed'],
        verifyToken: SANDBOX_VERIFY_TOKEN,
        includeValues: true,
        active: true,
      });
      t.sandbox.configureApp({ platform: 'facebook', clientId: sandboxApp('meta').clientId, clientSecret: sandboxApp('meta').clientSecret });
      const statuses = await sendWebhook(t.sandbox, sandboxApp('meta').clientId, { object: 'page', entry: [{ id: '3', time: 3, changes: [{ field: 'feed', value: { item: 'comment', verb: 'add', message: 'héllo' } }] }] });
      assert.deepEqual(statuses, [200]);
      assert.ok((await stored()).some((r) => r.body.includes('\\u00e9')));
    });

    test('a signed body with a NUL character, raw or escaped in a JSON string, is a 400 in the error shape and is not stored', async () => {
      const secret = sandboxApp('meta').clientSecret;
      const count = (await stored()).length;
      const bodies = [
        '{"object":"pa\\u0000ge","entry":[]}',
        '{"object":"page","entry":[{"id":"4","time":4,"changes":[{"field":"feed","value":{"message":"a\\\\\\u0000b"}}]}]}',
        '{"object":"page","entry":[{"id":"5","time":5,"changes":[{"field":"feed","value":{"message":"a\0b"}}]}]}',
      ];
      for (const body of bodies) {
        const res = await post(body, sign(body, secret));
        assert.equal(res.status, 400, body);
        assert.deepEqual(await res.json(), { error: { message: 'body: must not contain a NUL character' } });
      }
      assert.equal((await stored()).length, count);
      // An escaped backslash before u0000 is the text \u0000, not a NUL: stored as before.
      const plain = '{"object":"page","entry":[{"id":"6","time":6,"changes":[{"field":"feed","value":{"message":"a\\\\u0000b"}}]}]}';
      assert.equal((await post(plain, sign(plain, secret))).status, 200);
      assert.ok((await stored()).some((r) => r.body === plain));
      // The signature is checked first: an unsigned body with a NUL is still a 401.
      assert.equal((await post(bodies[0] ?? '')).status, 401);
    });
  });
}
