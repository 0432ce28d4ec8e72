// Connecting X end to end against the in-process sandbox (DESIGN "More platforms", connect): the
// authorize URL with a PKCE S256 challenge, the verifier sealed with the state row and sent with
// the 30-second code inside the callback (Basic client auth), the account stored and
// account.connected; health with the scopes and missing permissions; the account.refresh job
// storing the newest (rotated) refresh token; needs_reconnect when the refresh is refused or a
// fresh token gets 401.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { ManualClock } from './harness/clock.ts';
import { waitFor } from './harness/wait.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';

interface HealthBody {
  status: string;
  token: { valid: boolean | null };
  scopes: string[];
  missingPermissions: Array<{ permission: string; features: string[] }>;
}

const SCOPES = 'tweet.read tweet.write users.read media.write offline.access tweet.moderate.write like.read like.write';

for (const dialect of DIALECTS) {
  describe(`connect x (${dialect})`, { skip: skipReason(dialect) }, () => {
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
      const walk = await walkConnect(t, key, 'x', { redirectUrl: CLIENT_REDIRECT, externalId: 'ext-x' });
      const id = walk.location?.searchParams.get('accountId');
      assert.ok(id, `no account: ${walk.location?.toString() ?? String(walk.response.status)}`);
      return id;
    };
    const health = async (id: string) => {
      const res = await t.request(`/api/v1/accounts/${id}/health?refresh=1`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { health: HealthBody }).health;
    };

    test('consent with PKCE S256, the code exchanged with its verifier and Basic auth, account stored, account.connected', async () => {
      const start = await t.request('/api/v1/connect/x', { key });
      const { authUrl } = (await start.json()) as { authUrl: string };
      const url = new URL(authUrl);
      assert.match(url.pathname, /\/x\.com\/i\/oauth2\/authorize$/);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.match(url.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.equal(url.searchParams.get('scope'), SCOPES);
      // The verifier is kept sealed with the state row, and its challenge is what the URL carries.
      const states = await db().selectFrom('connect_states').selectAll().where('organization_id', '=', organizationId).where('platform', '=', 'x').execute();
      const sealed = states.at(-1)?.code_verifier_enc ?? '';
      assert.match(sealed, /^v1\./);
      const verifier = t.runtime.deps.sealer.open(sealed);
      assert.equal(createHash('sha256').update(verifier).digest('base64url'), url.searchParams.get('code_challenge'));

      const id = await connect();
      const account = await row(id);
      assert.equal(account.platform, 'x');
      assert.equal(account.username, 'sandbox_x');
      assert.match(account.platform_user_id, /^\d{19}$/);
      assert.equal(account.external_id, 'ext-x');
      assert.ok(account.token_expires_at !== null);
      assert.match(account.refresh_token_enc ?? '', /^v1\./);
      const exchange = t.sandbox.journal.list({ host: 'api.x.com', path: '/2/oauth2/token' }).at(-1);
      assert.equal(exchange?.status, 200);
      assert.match(exchange?.headers.authorization ?? '', /^Basic /);
      assert.equal((exchange?.body as Record<string, string>).grant_type, 'authorization_code');
      assert.ok((exchange?.body as Record<string, string>).code_verifier, 'the verifier was sent');
      const events = await db().selectFrom('events').selectAll().where('organization_id', '=', organizationId).where('type', '=', 'account.connected').execute();
      assert.ok(events.some((e) => (JSON.parse(e.data) as { accountId: string; platform: string }).accountId === id));
    });

    test('health lists the scopes, and a scope the stored grant lacks as a missing permission with its features', async () => {
      const id = await connect();
      const h = await health(id);
      assert.equal(h.status, 'active');
      assert.equal(h.token.valid, true);
      assert.deepEqual(h.scopes, SCOPES.split(' '));
      assert.deepEqual(h.missingPermissions, []);
      await db().updateTable('accounts').set({ scopes: SCOPES.split(' ').filter((s) => s !== 'media.write').join(',') }).where('id', '=', id).execute();
      const less = await health(id);
      assert.deepEqual(less.missingPermissions, [{ permission: 'media.write', features: ['publish'] }]);
    });

    test('the refresh job stores the newest refresh token (the old one stops working); a refused refresh marks needs_reconnect', async () => {
      const id = await connect();
      const before = await row(id);
      const oldRefresh = t.runtime.deps.sealer.open(before.refresh_token_enc ?? '');
      const job = await db().selectFrom('jobs').selectAll().where('kind', '=', 'account.refresh').where('payload', 'like', `%${id}%`).executeTakeFirstOrThrow();
      assert.ok(before.token_expires_at !== null && job.run_at < before.token_expires_at);
      clock.advance(job.run_at - clock.now() + 1);
      const refreshed = await waitFor(async () => {
        const r = await row(id);
        return r.access_token_enc !== before.access_token_enc ? r : null;
      }, 5000, 'the refreshed token');
      const newRefresh = t.runtime.deps.sealer.open(refreshed.refresh_token_enc ?? '');
      assert.notEqual(newRefresh, oldRefresh, 'the rotated refresh token is stored');
      assert.equal(t.sandbox.token(oldRefresh)?.revoked, 'logout', 'the sandbox no longer takes the old one');
      assert.equal(refreshed.status, 'active');

      const next = await db().selectFrom('jobs').selectAll().where('dedupe_key', '=', `account.refresh:${id}:${refreshed.token_expires_at ?? 0}`).executeTakeFirstOrThrow();
      t.sandbox.revokeToken(newRefresh);
      clock.advance(next.run_at - clock.now() + 1);
      await waitFor(async () => (await statusOf(id)) === 'needs_reconnect', 5000, 'needs_reconnect after a refused refresh');
    });

    test('a fresh token answered 401: health says invalid and the account needs reconnecting', async () => {
      const id = await connect();
      const token = t.runtime.deps.sealer.open((await row(id)).access_token_enc ?? '');
      t.sandbox.revokeToken(token);
      const h = await health(id);
      assert.deepEqual([h.token.valid, h.status], [false, 'needs_reconnect']);
      assert.equal(await statusOf(id), 'needs_reconnect');
    });
  });
}
