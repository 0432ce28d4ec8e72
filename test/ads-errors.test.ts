// How ads calls fail (issue 18), over HTTP against the in-process sandbox on both stores: the
// Marketing API's answers mapped to the contract's codes (a permission not granted 403, a token
// no longer valid 409 with the account marked, a throttle 429 with Retry-After from the usage
// headers), an account connected before ads (no user token) and one of another platform refused
// without a platform call; and the real connect flow keeping the person's user token, with
// health naming the ads permissions a person declined.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, walkConnect } from './harness/connect.ts';
import { addAdsAccount } from './ads-support.ts';
import { addAccount, json, startPostsApp, type PostsApp } from './posts-support.ts';

type Body = Record<string, unknown> & { error?: { message: string; code?: string } };

for (const dialect of DIALECTS) {
  describe(`ads errors [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect);
      ({ key, organizationId: org } = await t.tenant());
    });
    after(() => t.close());

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const callsSince = (seq: number) => t.sandbox.journal.list({ after: seq }).filter((e) => !e.path.startsWith('/_sandbox'));
    const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Body; headers: Headers }> => {
      const res = await t.request(`/api/v1${path}`, { key, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
    };
    const refused = (res: { status: number; body: Body }) => [res.status, res.body.error?.code ?? res.body.error?.message.split(':')[0]];
    const campaign = (accountId: string) => ({ accountId, name: 'x', goal: 'awareness', confirm: true });

    test('ads_management not granted: reads work, writes are 403 missing_permission', async () => {
      const reader = await addAdsAccount(t, org, { scopes: ['pages_show_list', 'ads_read'] });
      const accounts = await api('GET', `/ads/accounts?accountId=${reader.id}`);
      assert.equal(accounts.status, 200, JSON.stringify(accounts.body));
      assert.equal((await api('GET', `/ads/campaigns?accountId=${reader.id}&adAccountId=${reader.adAccountId}`)).status, 200);
      const res = await api('POST', '/ads/campaigns', { ...campaign(reader.id), adAccountId: reader.adAccountId });
      assert.deepEqual(refused(res), [403, 'missing_permission']);
      assert.match(res.body.error?.message ?? '', /ads_management/);
    });

    test('an account connected before ads (no user token): 403 missing_permission, no platform call', async () => {
      const old = await addAdsAccount(t, org, { userToken: false });
      const seq = mark();
      const res = await api('GET', `/ads/accounts?accountId=${old.id}`);
      assert.deepEqual(refused(res), [403, 'missing_permission']);
      assert.match(res.body.error?.message ?? '', /reconnect/);
      assert.deepEqual(callsSince(seq), []);
    });

    test('another platform: 400 not_supported, no platform call', async () => {
      const reddit = await addAccount(t, org, 'reddit');
      const seq = mark();
      assert.deepEqual(refused(await api('GET', `/ads/accounts?accountId=${reddit.id}`)), [400, 'not_supported']);
      assert.deepEqual(refused(await api('GET', '/ads/accounts?accountId=acc_nope')), [404, 'Account not found']);
      assert.deepEqual(callsSince(seq), []);
    });

    test('a user token no longer valid: 409 reconnect_required, the account marked, later calls refused without a call', async () => {
      const fb = await addAdsAccount(t, org);
      assert.equal((await api('GET', `/ads/accounts?accountId=${fb.id}`)).status, 200);
      t.sandbox.revokeToken(fb.userToken, 'password_changed');
      assert.deepEqual(refused(await api('GET', `/ads/campaigns?adAccountId=${fb.adAccountId}`)), [409, 'reconnect_required']);
      const account = (await api('GET', `/accounts/${fb.id}`)).body.account as { status: string };
      assert.equal(account.status, 'needs_reconnect');
      const seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', { ...campaign(fb.id), adAccountId: fb.adAccountId })), [409, 'reconnect_required']);
      assert.deepEqual(callsSince(seq), []);
    });

    test('the ad account throttled (80004/2446079): 429 rate_limited with Retry-After from the usage headers', async () => {
      const fb = await addAdsAccount(t, org);
      assert.equal((await api('GET', `/ads/accounts?accountId=${fb.id}`)).status, 200);
      t.sandbox.updateSettings({ ads: { callsPerWindow: 2 } });
      try {
        let res = await api('GET', `/ads/campaigns?adAccountId=${fb.adAccountId}`);
        for (let i = 0; i < 3 && res.status === 200; i++) res = await api('GET', `/ads/campaigns?adAccountId=${fb.adAccountId}`);
        assert.deepEqual(refused(res), [429, 'rate_limited']);
        const wait = Number(res.headers.get('retry-after'));
        assert.ok(wait > 0 && wait <= t.sandbox.settings.ads.usageWindowSeconds, `Retry-After ${String(res.headers.get('retry-after'))}`);
        const throttled = t.sandbox.journal.list().filter((e) => e.status >= 400).at(-1);
        assert.ok(throttled?.path.includes(fb.adAccountId));
      } finally {
        t.sandbox.updateSettings({ ads: { callsPerWindow: 1000 } });
      }
    });

    test('connect keeps the user token (sealed): ads work on a freshly connected Page; health names declined ads permissions', async () => {
      const books = [...t.sandbox.people.pages.values()].find((p) => p.name === 'Sandbox Books')?.id ?? '';
      const walk = await walkConnect(t, key, 'facebook', { redirectUrl: CLIENT_REDIRECT }, { untick: [books] });
      const id = walk.location?.searchParams.get('accountId') ?? '';
      assert.ok(id, `no account: ${walk.location?.toString() ?? walk.response.status}`);
      const row = await t.runtime.deps.store.db.selectFrom('account_user_tokens').selectAll().where('account_id', '=', id).executeTakeFirstOrThrow();
      const userToken = t.runtime.deps.sealer.open(row.token_enc);
      assert.ok(!row.token_enc.includes(userToken), 'stored sealed');
      assert.equal(t.sandbox.token(userToken)?.type, 'user');
      assert.ok(row.scopes.split(',').includes('ads_management'));
      const accounts = await api('GET', `/ads/accounts?accountId=${id}`);
      assert.equal(accounts.status, 200, JSON.stringify(accounts.body));
      const adAccounts = accounts.body.adAccounts as Array<{ id: string; name: string }>;
      assert.deepEqual(adAccounts.map((a) => a.name), ['Sandbox Bakery Ads']);

      // Declining ads at consent: health says which features it blocks.
      const declined = await walkConnect(t, key, 'facebook', { redirectUrl: CLIENT_REDIRECT }, { untick: [books, 'ads_management', 'ads_read'] });
      const again = declined.location?.searchParams.get('accountId') ?? '';
      assert.equal(again, id);
      const health = (await api('GET', `/accounts/${id}/health?refresh=1`)).body.health as { missingPermissions: Array<{ permission: string; features: string[] }> };
      assert.deepEqual(health.missingPermissions, [
        { permission: 'ads_management', features: ['ads'] },
        { permission: 'ads_read', features: ['ads'] },
      ]);
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', { ...campaign(id), adAccountId: adAccounts[0]?.id })), [403, 'missing_permission']);
    });
  });
}
