// WhatsApp: the service's embedded signup page leading to Meta's dialog with the WhatsApp
// config_id, the number found through debug_token's granted business accounts; and
// POST /whatsapp/connect with an existing token, checked before anything is stored, with
// registration and the business account's webhook subscription on request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, followCallback, startConnectApp } from './harness/connect.ts';
import { openConsent, submitConsent } from './sandbox/helpers.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';
import { sandboxApp } from '../src/platforms/registry.ts';

for (const dialect of DIALECTS) {
  describe(`whatsapp connect (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    let otherKey: string;
    before(async () => {
      t = await startConnectApp(dialect);
      ({ key } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
    });
    after(() => t.close());

    const waba = () => [...t.sandbox.whatsapp.wabas.values()][0];
    const phone = () => [...t.sandbox.whatsapp.phoneNumbers.values()][0];

    /** A user token with the WhatsApp permissions, as a business would hold one. */
    const userToken = async () => {
      const dialog = `${t.url}/sandbox/www.facebook.com/v24.0/dialog/oauth?client_id=${sandboxApp('meta').clientId}&redirect_uri=${encodeURIComponent('https://elsewhere.example/cb')}&config_id=x&response_type=code&state=s`;
      const code = (await submitConsent(await openConsent(dialog))).searchParams.get('code') ?? '';
      const res = await fetch(`${t.url}/sandbox/graph.facebook.com/v24.0/oauth/access_token?client_id=${sandboxApp('meta').clientId}&client_secret=${sandboxApp('meta').clientSecret}&redirect_uri=${encodeURIComponent('https://elsewhere.example/cb')}&code=${code}`);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const connectWith = (body: Record<string, unknown>, k = key) =>
      t.request('/api/v1/whatsapp/connect', { key: k, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    test('GET /connect/whatsapp: the embedded signup page, Meta dialog with config_id, the number connected', async () => {
      const start = (await (await t.request(`/api/v1/connect/whatsapp?redirectUrl=${encodeURIComponent(CLIENT_REDIRECT)}&externalId=wa-1`, { key })).json()) as { authUrl: string; expiresInSeconds: number };
      assert.equal(start.expiresInSeconds, 600);
      assert.ok(start.authUrl.startsWith(`${t.url}/api/v1/connect/whatsapp/signup?state=`));
      const page = await fetch(start.authUrl);
      assert.equal(page.status, 200);
      const href = /id="signup" href="([^"]+)"/.exec(await page.text())?.[1]?.replace(/&#38;/g, '&') ?? '';
      assert.match(href, /config_id=/);
      const callback = await submitConsent(await openConsent(href));
      const { response, location } = await followCallback(callback);
      assert.equal(response.status, 302, await response.clone().text());
      const accountId = location?.searchParams.get('accountId') ?? '';
      const { account } = (await (await t.request(`/api/v1/accounts/${accountId}`, { key })).json()) as { account: { platform: string; platformUserId: string; externalId: string; displayName: string } };
      assert.equal(account.platform, 'whatsapp');
      assert.equal(account.platformUserId, phone()?.id);
      assert.equal(account.externalId, 'wa-1');
      // The signup link is spent with its state.
      assert.equal((await fetch(start.authUrl)).status, 400);
    });

    test('POST /whatsapp/connect validates the token against the number and the business account first', async () => {
      const token = await userToken();
      const wrongPhone = await connectWith({ accessToken: token, wabaId: waba()?.id, phoneNumberId: '399999999999999' });
      assert.equal(wrongPhone.status, 400);
      const badToken = await connectWith({ accessToken: 'EAAnothing', wabaId: waba()?.id, phoneNumberId: phone()?.id });
      assert.equal(badToken.status, 400);
      const noPin = await connectWith({ accessToken: token, wabaId: waba()?.id, phoneNumberId: phone()?.id, register: true });
      assert.equal(noPin.status, 400);
      const accounts = (await (await t.request('/api/v1/accounts', { key: otherKey })).json()) as { accounts: unknown[] };
      assert.equal(accounts.accounts.length, 0);
    });

    test('POST /whatsapp/connect registers and subscribes on request and stores the account', async () => {
      const token = await userToken();
      const res = await connectWith({ accessToken: token, wabaId: waba()?.id, phoneNumberId: phone()?.id, pin: '123456', register: true, subscribe: true, externalId: 'wa-2' }, otherKey);
      assert.equal(res.status, 201, await res.clone().text());
      const { account } = (await res.json()) as { account: { id: string; platform: string; externalId: string } };
      assert.deepEqual([account.platform, account.externalId], ['whatsapp', 'wa-2']);
      assert.equal(phone()?.registered, true);
      assert.ok(waba()?.subscriptions.some((s) => s.appId === sandboxApp('meta').clientId));
      const posts = t.sandbox.journal.list({ method: 'POST' }).map((r) => r.path);
      assert.ok(posts.some((p) => p.endsWith(`/${phone()?.id}/register`)));
      assert.ok(posts.some((p) => p.endsWith(`/${sandboxApp('meta').clientId}/subscriptions`)));
      // Health works for the number too.
      const health = (await (await t.request(`/api/v1/accounts/${account.id}/health`, { key: otherKey })).json()) as { health: { token: { valid: boolean } } };
      assert.equal(health.health.token.valid, true);
    });
  });
}
