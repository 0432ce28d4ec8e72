// The OAuth connect of every platform, end to end against the in-process sandbox: the authorize
// URL, the consent page walked as a browser, the service's callback (code exchange, long-lived
// token, profile), the account stored with its tokens sealed, and account.connected.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, followCallback, startConnectApp, walkConnect } from './harness/connect.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';

interface AccountBody {
  id: string;
  platform: string;
  platformUserId: string;
  username: string | null;
  displayName: string | null;
  externalId: string | null;
  status: string;
  connectedAt: string;
  tokenExpiresAt: string | null;
}

for (const dialect of DIALECTS) {
  describe(`connect over OAuth (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    let organizationId: string;
    before(async () => {
      t = await startConnectApp(dialect);
      ({ key, organizationId } = await t.tenant());
    });
    after(() => t.close());

    const account = async (id: string) => ((await (await t.request(`/api/v1/accounts/${id}`, { key })).json()) as { account: AccountBody }).account;
    const events = (type: string) =>
      t.runtime.deps.store.db.selectFrom('events').selectAll().where('organization_id', '=', organizationId).where('type', '=', type).execute();

    const cases: Array<{ platform: string; query?: Record<string, string>; username: string; expires: boolean }> = [
      { platform: 'reddit', username: 'sandbox_user', expires: true },
      { platform: 'tiktok', username: 'sandbox.tiktok', expires: true },
      { platform: 'threads', username: 'sandbox.threads', expires: true },
      { platform: 'instagram', username: 'sandbox.bakery', expires: true },
      { platform: 'instagram', query: { login: 'facebook' }, username: 'sandbox.bakery', expires: false },
    ];
    for (const c of cases) {
      test(`${c.platform}${c.query?.login ? ` (${c.query.login} login)` : ''}: consent, callback, account stored, account.connected`, async () => {
        const walk = await walkConnect(t, key, c.platform, { externalId: `ext-${c.platform}`, redirectUrl: CLIENT_REDIRECT, ...c.query });
        assert.equal(walk.response.status, 302, await walk.response.clone().text());
        assert.equal(`${walk.location?.origin}${walk.location?.pathname}`, CLIENT_REDIRECT);
        const accountId = walk.location?.searchParams.get('accountId') ?? '';
        assert.match(accountId, /^acc_/);
        const body = await account(accountId);
        assert.equal(body.platform, c.platform);
        assert.equal(body.username, c.username);
        assert.equal(body.externalId, `ext-${c.platform}`);
        assert.equal(body.status, 'active');
        assert.equal(body.tokenExpiresAt !== null, c.expires);
        // Tokens are stored sealed, never in clear.
        const row = await t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
        assert.match(row.access_token_enc ?? '', /^v1\./);
        assert.ok([...t.sandbox.tokens.keys()].includes(t.runtime.deps.sealer.open(row.access_token_enc ?? '')));
        const connected = (await events('account.connected')).map((e) => JSON.parse(e.data) as { accountId: string; platform: string; externalId: string });
        assert.ok(connected.some((e) => e.accountId === accountId && e.platform === c.platform && e.externalId === `ext-${c.platform}`));
      });
    }

    test('without redirectUrl the callback shows a done page', async () => {
      const walk = await walkConnect(t, key, 'tiktok');
      assert.equal(walk.response.status, 200);
      assert.match(await walk.response.text(), /Account connected/);
    });

    test('the state is single use: a replayed callback shows an error page and connects nothing', async () => {
      const walk = await walkConnect(t, key, 'reddit', { redirectUrl: CLIENT_REDIRECT });
      assert.equal(walk.response.status, 302);
      const before = (await events('account.connected')).length;
      const replay = await followCallback(walk.callbackUrl);
      assert.equal(replay.response.status, 400);
      assert.match(await replay.response.text(), /already used or is more than 10 minutes old/);
      assert.equal((await events('account.connected')).length, before);
    });

    test('an unknown state, or one for another platform, connects nothing', async () => {
      const start = await t.request('/api/v1/connect/reddit', { key });
      const state = new URL(((await start.json()) as { authUrl: string }).authUrl).searchParams.get('state') ?? '';
      const wrongPlatform = await followCallback(new URL(`${t.url}/api/v1/connect/tiktok/callback?code=x&state=${state}`));
      assert.equal(wrongPlatform.response.status, 400);
      const unknown = await followCallback(new URL(`${t.url}/api/v1/connect/reddit/callback?code=x&state=nope`));
      assert.equal(unknown.response.status, 400);
    });

    test('cancelling on the consent page sends error=access_denied to the redirectUrl', async () => {
      const walk = await walkConnect(t, key, 'threads', { redirectUrl: CLIENT_REDIRECT }, { decision: 'deny' });
      assert.equal(walk.response.status, 302);
      assert.equal(walk.location?.searchParams.get('error'), 'access_denied');
      assert.equal(walk.location?.searchParams.get('accountId'), null);
    });

    test('reconnecting the same platform user updates the account in place', async () => {
      const first = (await walkConnect(t, key, 'tiktok', { redirectUrl: CLIENT_REDIRECT, externalId: 'keep-me' })).location?.searchParams.get('accountId');
      const row = await t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', first ?? '').executeTakeFirstOrThrow();
      await t.runtime.deps.store.db.updateTable('accounts').set({ status: 'needs_reconnect' }).where('id', '=', row.id).execute();
      const second = (await walkConnect(t, key, 'tiktok', { redirectUrl: CLIENT_REDIRECT })).location?.searchParams.get('accountId');
      assert.equal(second, first);
      const after = await account(second ?? '');
      assert.equal(after.status, 'active');
      assert.equal(after.externalId, 'keep-me');
      const again = await t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      assert.notEqual(again.access_token_enc, row.access_token_enc);
      const list = ((await (await t.request('/api/v1/accounts', { key })).json()) as { accounts: AccountBody[] }).accounts;
      assert.equal(list.filter((a) => a.platform === 'tiktok').length, 1);
    });

    test('bad input is 400: unknown platform, long externalId, relative redirectUrl, login on another platform', async () => {
      for (const path of [
        '/api/v1/connect/myspace',
        `/api/v1/connect/reddit?externalId=${'x'.repeat(201)}`,
        '/api/v1/connect/reddit?redirectUrl=/relative',
        '/api/v1/connect/reddit?redirectUrl=ftp://x.example/',
        '/api/v1/connect/reddit?login=facebook',
      ]) {
        const res = await t.request(path, { key });
        assert.equal(res.status, 400, path);
      }
      const ok = (await (await t.request('/api/v1/connect/facebook', { key })).json()) as { authUrl: string; expiresInSeconds: number };
      assert.equal(ok.expiresInSeconds, 600);
      assert.match(ok.authUrl, /\/sandbox\/www\.facebook\.com\/v24\.0\/dialog\/oauth\?/);
    });

    test('no key is 401', async () => {
      assert.equal((await t.request('/api/v1/connect/reddit')).status, 401);
    });
  });
}
