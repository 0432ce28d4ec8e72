// What the service asks the platform about a connected account: health (the token as the
// platform sees it, declined permissions, cached 10 minutes), the publishing limit, the webhook
// subscription (with Meta's handshake reaching our callback), and the needs_reconnect cycle with
// account.disconnected delivered to a real receiver.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { ManualClock } from './harness/clock.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';
import { sandboxApp } from '../src/platforms/registry.ts';

interface HealthBody {
  accountId: string;
  platform: string;
  status: string;
  token: { valid: boolean | null; expiresAt: string | null };
  scopes: string[];
  missingPermissions: Array<{ permission: string; features: string[] }>;
  recommendations: string[];
  checkedAt: string;
}

for (const dialect of DIALECTS) {
  describe(`account health, limits, subscriptions, reconnect (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    const clock = new ManualClock();
    const receiver = new Receiver();
    let key: string;
    let otherKey: string;
    before(async () => {
      await receiver.start();
      t = await startConnectApp(dialect, { clock, worker: true });
      ({ key } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
      const hook = await t.request('/api/v1/webhooks', {
        key,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['account.disconnected'] }),
      });
      assert.equal(hook.status, 201, await hook.clone().text());
    });
    after(async () => {
      await t.close();
      await receiver.stop();
    });

    const connect = async (platform: string, query: Record<string, string> = {}, consent: Parameters<typeof walkConnect>[4] = {}) => {
      const walk = await walkConnect(t, key, platform, { redirectUrl: CLIENT_REDIRECT, ...query }, consent);
      const id = walk.location?.searchParams.get('accountId');
      assert.ok(id, `no account: ${walk.location?.toString() ?? walk.response.status}`);
      return id;
    };
    const tokenOf = async (id: string) => {
      const row = await t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return t.runtime.deps.sealer.open(row.access_token_enc ?? '');
    };
    const health = async (id: string, refresh = false) => {
      const res = await t.request(`/api/v1/accounts/${id}/health${refresh ? '?refresh=1' : ''}`, { key });
      assert.equal(res.status, 200);
      return ((await res.json()) as { health: HealthBody }).health;
    };
    const journal = (path: RegExp) => t.sandbox.journal.list({}).filter((e) => path.test(e.path)).length;
    const statusOf = async (id: string) => ((await (await t.request(`/api/v1/accounts/${id}`, { key })).json()) as { account: { status: string } }).account.status;
    const onePage = () => ({ untick: [[...t.sandbox.people.pages.values()].find((p) => p.name === 'Sandbox Books')?.id ?? ''] });

    test('health of a facebook Page: the token as debug_token sees it, a declined permission and the features it blocks', async () => {
      const id = await connect('facebook', {}, { ...onePage(), untick: [...onePage().untick, 'pages_messaging'] });
      const h = await health(id);
      assert.equal(h.platform, 'facebook');
      assert.equal(h.status, 'active');
      assert.equal(h.token.valid, true);
      assert.equal(h.token.expiresAt, null);
      assert.ok(h.scopes.includes('pages_manage_posts'));
      assert.deepEqual(h.missingPermissions, [{ permission: 'pages_messaging', features: ['messages'] }]);
      assert.ok(h.recommendations.some((r) => r.includes('pages_messaging')));

      // Cached 10 minutes; refresh=1 asks again.
      const calls = journal(/debug_token/);
      assert.equal((await health(id)).checkedAt, h.checkedAt);
      assert.equal(journal(/debug_token/), calls);
      clock.advance(1000);
      assert.notEqual((await health(id, true)).checkedAt, h.checkedAt);
      assert.equal(journal(/debug_token/), calls + 1);

      const list = (await (await t.request('/api/v1/accounts/health', { key })).json()) as { accounts: HealthBody[] };
      assert.ok(list.accounts.some((a) => a.accountId === id));
    });

    test('health with a revoked token: invalid, needs_reconnect, account.disconnected delivered; reconnect brings it back', async () => {
      const id = await connect('facebook', {}, onePage());
      t.sandbox.revokeToken(await tokenOf(id), 'deauthorized');
      const h = await health(id, true);
      assert.equal(h.token.valid, false);
      assert.equal(h.status, 'needs_reconnect');
      assert.ok(h.recommendations[0]?.startsWith('Reconnect'));
      assert.equal(await statusOf(id), 'needs_reconnect');
      const [delivery] = await receiver.waitFor(1);
      const event = JSON.parse(delivery?.body ?? '{}') as { event: string; data: { accountId: string; reason: string; platform: string } };
      assert.equal(event.event, 'account.disconnected');
      assert.deepEqual([event.data.accountId, event.data.reason, event.data.platform], [id, 'token_invalid', 'facebook']);

      assert.equal(await connect('facebook', {}, onePage()), id);
      assert.equal(await statusOf(id), 'active');
      assert.equal((await health(id)).token.valid, true);
    });

    test('an expired Instagram Login token: health says invalid', async () => {
      const id = await connect('instagram');
      t.sandbox.expireToken(await tokenOf(id));
      const h = await health(id, true);
      assert.deepEqual([h.token.valid, h.status], [false, 'needs_reconnect']);
    });

    test('publishing limit: instagram and threads from their quota endpoints; others 400 not_supported', async () => {
      for (const platform of ['instagram', 'threads']) {
        const id = await connect(platform);
        const res = await t.request(`/api/v1/accounts/${id}/publishing-limit`, { key });
        assert.equal(res.status, 200, await res.clone().text());
        const limit = (await res.json()) as { used: number; allowed: number; windowHours: number };
        assert.equal(limit.used, 0);
        assert.ok(limit.allowed > 0);
        assert.equal(limit.windowHours, 24);
      }
      const tiktok = await connect('tiktok');
      const res = await t.request(`/api/v1/accounts/${tiktok}/publishing-limit`, { key });
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_supported');
    });

    test('a token the platform calls invalid: 409 reconnect_required, needs_reconnect, no further platform call', async () => {
      const id = await connect('threads');
      t.sandbox.revokeToken(await tokenOf(id));
      const res = await t.request(`/api/v1/accounts/${id}/publishing-limit`, { key });
      assert.equal(res.status, 409);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'reconnect_required');
      assert.equal(await statusOf(id), 'needs_reconnect');
      const calls = journal(/threads_publishing_limit/);
      assert.equal((await t.request(`/api/v1/accounts/${id}/publishing-limit`, { key })).status, 409);
      assert.equal(journal(/threads_publishing_limit/), calls);
    });

    test('webhook subscription of a Page: the app subscription (with its handshake to our callback), then the Page', async () => {
      const id = await connect('facebook', {}, onePage());
      const pageId = [...t.sandbox.people.pages.values()].find((p) => p.name === 'Sandbox Bakery')?.id ?? '';
      const res = await t.request(`/api/v1/accounts/${id}/webhook-subscription`, { key, method: 'POST' });
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { subscribed: boolean; fields: string[]; appSubscriptionUpdated: boolean };
      assert.equal(body.subscribed, true);
      assert.ok(body.fields.includes('feed') && body.fields.includes('messages'));
      assert.equal(body.appSubscriptionUpdated, true);

      const requests = t.sandbox.journal.list({ method: 'POST' });
      const appCall = requests.find((r) => r.path.endsWith(`/${sandboxApp('meta').clientId}/subscriptions`));
      assert.ok(appCall, 'the app subscription reached the sandbox');
      assert.equal((appCall.body as Record<string, string>).object, 'page');
      assert.equal((appCall.body as Record<string, string>).callback_url, `${t.url}/api/v1/platform-webhooks/meta`);
      const pageCall = requests.find((r) => r.path.endsWith(`/${pageId}/subscribed_apps`));
      assert.ok(pageCall, 'the Page subscription reached the sandbox');
      assert.match(String((pageCall.body as Record<string, string>).subscribed_fields), /feed/);
      // The sandbox made the subscription only after our callback echoed its hub.challenge.
      assert.equal(t.sandbox.webhooks.subscriptions.get(`${sandboxApp('meta').clientId}:page`)?.callbackUrl, `${t.url}/api/v1/platform-webhooks/meta`);

      const again = (await (await t.request(`/api/v1/accounts/${id}/webhook-subscription`, { key, method: 'POST' })).json()) as { appSubscriptionUpdated: boolean };
      assert.equal(again.appSubscriptionUpdated, false);

      const reddit = await connect('reddit');
      assert.equal((await t.request(`/api/v1/accounts/${reddit}/webhook-subscription`, { key, method: 'POST' })).status, 400);
    });

    test('webhook subscription of an Instagram Login account', async () => {
      const id = await connect('instagram');
      const res = await t.request(`/api/v1/accounts/${id}/webhook-subscription`, { key, method: 'POST' });
      assert.equal(res.status, 200, await res.clone().text());
      assert.ok(t.sandbox.journal.list({ method: 'POST' }).some((r) => r.host === 'graph.instagram.com' && r.path.endsWith('/subscribed_apps')));
    });

    test("another organization's account ids are 404 on every account route", async () => {
      const id = await connect('threads');
      for (const [method, path] of [
        ['GET', `/api/v1/accounts/${id}/health`],
        ['GET', `/api/v1/accounts/${id}/publishing-limit`],
        ['POST', `/api/v1/accounts/${id}/webhook-subscription`],
        ['GET', `/api/v1/accounts/${id}`],
      ] as const) {
        assert.equal((await t.request(path, { key: otherKey, method })).status, 404, `${method} ${path}`);
      }
      const list = (await (await t.request('/api/v1/accounts/health', { key: otherKey })).json()) as { accounts: HealthBody[] };
      assert.equal(list.accounts.length, 0);
    });

    test('a refresh job renews the token before it expires; a refused refresh marks the account', async () => {
      const id = await connect('tiktok');
      const before = await t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const job = await t.runtime.deps.store.db.selectFrom('jobs').selectAll().where('kind', '=', 'account.refresh').where('payload', 'like', `%${id}%`).executeTakeFirstOrThrow();
      assert.ok(before.token_expires_at !== null && job.run_at < before.token_expires_at && job.run_at > clock.now());
      clock.advance(job.run_at - clock.now() + 1);
      const refreshed = await waitFor(async () => {
        const row = await t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return row.access_token_enc !== before.access_token_enc ? row : null;
      }, 5000, 'the refreshed token');
      assert.ok((refreshed.token_expires_at ?? 0) > (before.token_expires_at ?? 0));
      assert.equal(refreshed.status, 'active');

      // The next refresh is queued; revoke the refresh token so it fails as invalid_grant.
      const next = await t.runtime.deps.store.db
        .selectFrom('jobs')
        .selectAll()
        .where('dedupe_key', '=', `account.refresh:${id}:${refreshed.token_expires_at ?? 0}`)
        .executeTakeFirstOrThrow();
      assert.equal(next.status, 'pending');
      t.sandbox.revokeToken(t.runtime.deps.sealer.open(refreshed.refresh_token_enc ?? ''));
      clock.advance(next.run_at - clock.now() + 1);
      await waitFor(async () => (await statusOf(id)) === 'needs_reconnect', 5000, 'needs_reconnect after a refused refresh');
    });

    test('a refresh that fails for a transient reason is retried and disconnects nothing', async () => {
      const id = await connect('reddit');
      const job = await t.runtime.deps.store.db.selectFrom('jobs').selectAll().where('kind', '=', 'account.refresh').where('payload', 'like', `%${id}%`).executeTakeFirstOrThrow();
      t.sandbox.faults.add({ kind: 'server_error', host: 'www.reddit.com', path: '/api/v1/access_token', times: 1 });
      clock.advance(job.run_at - clock.now() + 1);
      const retried = await waitFor(async () => {
        const row = await t.runtime.deps.store.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirst();
        return row && row.attempts === 1 && row.status === 'pending' ? row : null;
      }, 5000, 'the retry of the refresh');
      assert.equal(await statusOf(id), 'active');
      clock.advance(retried.run_at - clock.now() + 1);
      await waitFor(async () => !(await t.runtime.deps.store.db.selectFrom('jobs').select('id').where('id', '=', job.id).executeTakeFirst()), 5000, 'the refresh to succeed');
      assert.equal(await statusOf(id), 'active');
    });
  });
}
