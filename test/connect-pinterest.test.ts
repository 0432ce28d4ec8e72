// Connecting Pinterest end to end against the in-process sandbox (DESIGN "More platforms",
// connect): the consent at www.pinterest.com/oauth/ with comma-separated scopes, the code
// exchanged with HTTP Basic client auth, the account stored with its refresh token and
// account.connected; health; the account.refresh job storing the newest refresh token of every
// answer (continuous refresh: the used one stops working); needs_reconnect when a refresh is
// refused or a fresh token gets 401. Then GET /accounts/{id}/boards, the account-resource route:
// the boards and sections listed live, another organization's account a 404, an account of a
// platform without boards a 400 not_supported, a revoked token a 409 with needs_reconnect, and the
// operation in the API document.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { ManualClock } from './harness/clock.ts';
import { waitFor } from './harness/wait.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';
import { addXAccount } from './posts-x-support.ts';
import { addPinterestAccount } from './pinterest-support.ts';
import type { PostsApp } from './posts-support.ts';

const SCOPES = 'boards:read,boards:read_secret,boards:write,pins:read,pins:read_secret,pins:write,user_accounts:read';

interface HealthBody {
  status: string;
  token: { valid: boolean | null };
  scopes: string[];
  missingPermissions: Array<{ permission: string; features: string[] }>;
}

for (const dialect of DIALECTS) {
  describe(`connect pinterest (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    const clock = new ManualClock();
    let key: string;
    let organizationId: string;
    before(async () => {
      t = await startConnectApp(dialect, { clock, worker: true });
      ({ key, organizationId } = await t.tenant());
    });
    after(() => t.close());

    const db = () => t.runtime.deps.store.db;
    const row = (id: string) => db().selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const statusOf = async (id: string) => (await row(id)).status;
    const connect = async () => {
      const walk = await walkConnect(t, key, 'pinterest', { redirectUrl: CLIENT_REDIRECT, externalId: 'ext-pin' });
      const id = walk.location?.searchParams.get('accountId');
      assert.ok(id, `no account: ${walk.location?.toString() ?? String(walk.response.status)}`);
      return id;
    };
    const health = async (id: string) => {
      const res = await t.request(`/api/v1/accounts/${id}/health?refresh=1`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { health: HealthBody }).health;
    };

    test('consent with comma-separated scopes, the code exchanged with Basic auth, the account and its refresh token stored, account.connected', async () => {
      const start = await t.request('/api/v1/connect/pinterest', { key });
      assert.equal(start.status, 200, await start.clone().text());
      const url = new URL(((await start.json()) as { authUrl: string }).authUrl);
      assert.match(url.pathname, /\/www\.pinterest\.com\/oauth\/?$/);
      assert.equal(url.searchParams.get('scope'), SCOPES);
      assert.equal(url.searchParams.get('response_type'), 'code');
      const id = await connect();
      const account = await row(id);
      assert.equal(account.platform, 'pinterest');
      assert.equal(account.username, 'sandbox_pins');
      assert.match(account.platform_user_id, /^\d{18}$/);
      assert.ok(account.token_expires_at !== null);
      assert.match(account.refresh_token_enc ?? '', /^v1\./);
      const exchange = t.sandbox.journal.list({ host: 'api.pinterest.com', path: '/v5/oauth/token' }).at(-1);
      assert.equal(exchange?.status, 200);
      assert.match(exchange?.headers.authorization ?? '', /^Basic /);
      assert.equal((exchange?.body as Record<string, string>).grant_type, 'authorization_code');
      const events = await db().selectFrom('events').selectAll().where('organization_id', '=', organizationId).where('type', '=', 'account.connected').execute();
      assert.ok(events.some((e) => (JSON.parse(e.data) as { accountId: string }).accountId === id));
    });

    test('health lists the scopes; a scope the grant lacks is a missing permission with its features', async () => {
      const id = await connect();
      const h = await health(id);
      assert.deepEqual([h.status, h.token.valid], ['active', true]);
      assert.deepEqual(h.missingPermissions, []);
      await db().updateTable('accounts').set({ scopes: SCOPES.split(',').filter((s) => s !== 'pins:write').join(',') }).where('id', '=', id).execute();
      assert.deepEqual((await health(id)).missingPermissions, [{ permission: 'pins:write', features: ['publish'] }]);
    });

    test('every refresh stores the newest refresh token (the used one stops working); a refused refresh marks needs_reconnect', async () => {
      const id = await connect();
      let current = await row(id);
      for (let round = 0; round < 2; round++) {
        const oldRefresh = t.runtime.deps.sealer.open(current.refresh_token_enc ?? '');
        const job = await db().selectFrom('jobs').selectAll().where('dedupe_key', '=', `account.refresh:${id}:${current.token_expires_at ?? 0}`).executeTakeFirstOrThrow();
        clock.advance(job.run_at - clock.now() + 1);
        const previous = current;
        current = await waitFor(async () => {
          const r = await row(id);
          return r.access_token_enc !== previous.access_token_enc ? r : null;
        }, 5000, `refresh ${round + 1}`);
        const newRefresh = t.runtime.deps.sealer.open(current.refresh_token_enc ?? '');
        assert.notEqual(newRefresh, oldRefresh, 'the new refresh token is stored');
        assert.equal(t.sandbox.token(oldRefresh)?.revoked, 'logout');
        assert.equal(current.status, 'active');
      }
      t.sandbox.revokeToken(t.runtime.deps.sealer.open(current.refresh_token_enc ?? ''));
      const next = await db().selectFrom('jobs').selectAll().where('dedupe_key', '=', `account.refresh:${id}:${current.token_expires_at ?? 0}`).executeTakeFirstOrThrow();
      clock.advance(next.run_at - clock.now() + 1);
      await waitFor(async () => (await statusOf(id)) === 'needs_reconnect', 5000, 'needs_reconnect after a refused refresh');
    });

    test('a fresh token answered 401: health says invalid and the account needs reconnecting', async () => {
      const id = await connect();
      t.sandbox.revokeToken(t.runtime.deps.sealer.open((await row(id)).access_token_enc ?? ''));
      const h = await health(id);
      assert.deepEqual([h.token.valid, h.status], [false, 'needs_reconnect']);
    });

    test('GET /accounts/{id}/boards: boards and sections live; another organization 404; x 400 not_supported; a revoked token 409; in the API document', async () => {
      const app: PostsApp = t;
      const account = await addPinterestAccount(app, organizationId);
      const res = await t.request(`/api/v1/accounts/${account.id}/boards`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { boards: Array<{ id: string; name: string; privacy: string; sections: Array<{ id: string; name: string }> }> };
      assert.deepEqual(body.boards.map((b) => [b.id, b.name, b.privacy, b.sections.map((s) => s.name)]), [
        [account.boards[0]?.id, 'Recipes', 'PUBLIC', ['Breads']],
        [account.boards[1]?.id, 'Reading', 'SECRET', []],
      ]);
      assert.equal(body.boards[0]?.sections[0]?.id, account.boards[0]?.sections[0]?.id);

      const other = await t.tenant();
      const foreign = await t.request(`/api/v1/accounts/${account.id}/boards`, { key: other.key });
      assert.equal(foreign.status, 404);
      const x = await addXAccount(app, organizationId);
      const before = t.sandbox.journal.list().length;
      const unsupported = await t.request(`/api/v1/accounts/${x.id}/boards`, { key });
      assert.equal(unsupported.status, 400);
      const error = ((await unsupported.json()) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'not_supported');
      assert.match(error.message, /pinterest/);
      assert.equal(t.sandbox.journal.list().length, before, 'no platform call');

      t.sandbox.revokeToken(account.token);
      const revoked = await t.request(`/api/v1/accounts/${account.id}/boards`, { key });
      assert.equal(revoked.status, 409);
      assert.equal(await statusOf(account.id), 'needs_reconnect');

      const doc = (await (await t.request('/api/v1/openapi.json', { key })).json()) as { paths: Record<string, { get?: { operationId?: string } }> };
      assert.equal(doc.paths['/accounts/{id}/boards']?.get?.operationId, 'getAccountBoards');
    });
  });
}
