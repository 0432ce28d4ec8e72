// Connecting LinkedIn end to end against the in-process sandbox (DESIGN "More platforms",
// Connect): "Sandbox Member" administers two organizations, so the consent becomes a pending
// connection offering the member and both organizations; a member without one connects at once.
// Organization accounts carry the member's token and memberId; reconnecting updates in place;
// health reads LinkedIn's token introspection and warns in the last 7 days when no refresh token
// was given, and names the refresh token's fixed end when one was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, followCallback, startConnectApp, walkConnect } from './harness/connect.ts';
import { ManualClock } from './harness/clock.ts';
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
}

interface Health {
  status: string;
  token: { valid: boolean | null; expiresAt: string | null };
  scopes: string[];
  missingPermissions: Array<{ permission: string; features: string[] }>;
  recommendations: string[];
}

for (const dialect of DIALECTS) {
  describe(`connect linkedin (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    const clock = new ManualClock();
    let key: string;
    let organizationId: string;
    before(async () => {
      t = await startConnectApp(dialect, { clock });
      ({ key, organizationId } = await t.tenant());
    });
    after(() => t.close());

    const account = async (id: string) => ((await (await t.request(`/api/v1/accounts/${id}`, { key })).json()) as { account: AccountBody }).account;
    const health = async (id: string) => ((await (await t.request(`/api/v1/accounts/${id}/health?refresh=1`, { key })).json()) as { health: Health }).health;
    const row = (id: string) => t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const solo = () => {
      const { member } = t.sandbox.addLinkedInMember({ name: `Solo Member ${t.sandbox.people.linkedinMembers.size}` });
      return member;
    };

    test('the member and the organizations they administer are a pending choice; select connects each with the member token', async () => {
      const walk = await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT, externalId: 'li-1' });
      assert.equal(walk.response.status, 302, await walk.response.clone().text());
      const pendingId = walk.location?.searchParams.get('pendingId') ?? '';
      assert.match(pendingId, /^pend_/);
      const { pending } = (await (await t.request(`/api/v1/connect/pending/${pendingId}`, { key })).json()) as { pending: { options: Array<{ id: string; name: string; kind: string }> } };
      assert.deepEqual(pending.options.map((o) => [o.kind, o.name]), [['person', 'Sandbox Member'], ['organization', 'Sandbox Bakery'], ['organization', 'Sandbox Books']]);
      const authorize = t.sandbox.journal.list({ host: 'www.linkedin.com', method: 'GET', path: '/oauth/v2/authorization' }).at(-1);
      assert.equal(authorize?.query.scope, 'openid profile w_member_social w_organization_social r_organization_social rw_organization_admin');
      const acls = t.sandbox.journal.list({ host: 'api.linkedin.com', path: '/rest/organizationAcls' }).at(-1);
      assert.equal(acls?.headers['x-restli-protocol-version'], '2.0.0');
      assert.match(acls?.headers['linkedin-version'] ?? '', /^\d{6}$/);

      const res = await t.request(`/api/v1/connect/pending/${pendingId}/select`, {
        key,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ optionIds: pending.options.map((o) => o.id) }),
      });
      assert.equal(res.status, 200);
      const { accounts } = (await res.json()) as { accounts: AccountBody[] };
      assert.equal(accounts.length, 3);
      const member = accounts.find((a) => a.platformUserId.startsWith('urn:li:person:'));
      const bakery = accounts.find((a) => a.displayName === 'Sandbox Bakery');
      assert.ok(member && bakery);
      assert.match(bakery.platformUserId, /^urn:li:organization:\d+$/);
      assert.equal(bakery.username, 'sandbox-bakery');
      assert.ok(accounts.every((a) => a.externalId === 'li-1' && a.platform === 'linkedin'));
      const [memberRow, bakeryRow] = [await row(member.id), await row(bakery.id)];
      assert.equal(t.runtime.deps.sealer.open(bakeryRow.access_token_enc ?? ''), t.runtime.deps.sealer.open(memberRow.access_token_enc ?? ''));
      assert.equal((JSON.parse(bakeryRow.metadata) as { memberId: string }).memberId, member.platformUserId.split(':').pop());
      assert.ok(bakeryRow.token_expires_at !== null && bakeryRow.token_expires_at > clock.now() + 59 * 86_400_000);
      const connected = await t.runtime.deps.store.db.selectFrom('events').selectAll().where('organization_id', '=', organizationId).where('type', '=', 'account.connected').execute();
      assert.equal(connected.filter((e) => (JSON.parse(e.data) as { platform: string }).platform === 'linkedin').length, 3);

      const h = await health(bakery.id);
      assert.equal(h.status, 'active');
      assert.equal(h.token.valid, true);
      assert.deepEqual(h.missingPermissions, []);
      assert.ok(h.scopes.includes('w_organization_social'));
    });

    test('reconnecting the member updates the token of every account of that member (one token, one expiry)', async () => {
      const walk = await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT });
      const pendingId = walk.location?.searchParams.get('pendingId') ?? '';
      const { pending } = (await (await t.request(`/api/v1/connect/pending/${pendingId}`, { key })).json()) as { pending: { options: Array<{ id: string; kind: string }> } };
      const person = pending.options.find((o) => o.kind === 'person')?.id ?? '';
      const res = await t.request(`/api/v1/connect/pending/${pendingId}/select`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionIds: [person] }) });
      assert.equal(res.status, 200, await res.clone().text());
      const rows = await t.runtime.deps.store.db.selectFrom('accounts').selectAll().where('organization_id', '=', organizationId).where('platform', '=', 'linkedin').execute();
      const group = rows.filter((r) => (JSON.parse(r.metadata) as { memberId?: string }).memberId === person.split(':').pop());
      assert.equal(group.length, 3);
      const tokens = new Set(group.map((r) => t.runtime.deps.sealer.open(r.access_token_enc ?? '')));
      assert.equal(tokens.size, 1, 'one token for the member and both organizations');
      assert.equal(new Set(group.map((r) => r.token_expires_at)).size, 1, 'one expiry');
      assert.ok([...tokens].every((token) => t.sandbox.token(token)?.revoked === null && !t.sandbox.isExpired(t.sandbox.token(token) ?? ({} as never))));
    });

    test('a member without organizations connects at once; the link is single use; reconnecting updates in place', async () => {
      const member = solo();
      const walk = await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT, externalId: 'solo' }, { subject: member.id });
      const accountId = walk.location?.searchParams.get('accountId') ?? '';
      assert.match(accountId, /^acc_/);
      const body = await account(accountId);
      assert.equal(body.platformUserId, `urn:li:person:${member.id}`);
      assert.equal(body.displayName, member.name);
      const replay = await followCallback(walk.callbackUrl);
      assert.equal(replay.response.status, 400);

      await t.runtime.deps.store.db.updateTable('accounts').set({ status: 'needs_reconnect' }).where('id', '=', accountId).execute();
      const before = await row(accountId);
      const again = await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT }, { subject: member.id });
      assert.equal(again.location?.searchParams.get('accountId'), accountId);
      const after = await row(accountId);
      assert.equal(after.status, 'active');
      assert.equal(after.external_id, 'solo');
      assert.notEqual(after.access_token_enc, before.access_token_enc);
    });

    test('without a refresh token health warns in the last 7 days; with one it names the fixed 365-day end and refresh keeps it', async () => {
      const member = solo();
      const plain = (await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT }, { subject: member.id })).location?.searchParams.get('accountId') ?? '';
      assert.equal((await row(plain)).refresh_token_enc, null);
      assert.ok(!(await health(plain)).recommendations.some((r) => r.includes('expires on')));
      clock.advance(54 * 86_400_000);
      assert.ok((await health(plain)).recommendations.some((r) => r.includes('expires on')));
      clock.advance(-54 * 86_400_000);

      t.sandbox.updateSettings({ linkedin: { refreshTokens: true } });
      const approved = solo();
      const id = (await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT }, { subject: approved.id })).location?.searchParams.get('accountId') ?? '';
      t.sandbox.updateSettings({ linkedin: { refreshTokens: false } });
      const stored = await row(id);
      assert.notEqual(stored.refresh_token_enc, null);
      const h = await health(id);
      assert.ok(h.recommendations.some((r) => /refresh token ends on .*365 days from consent/.test(r)), JSON.stringify(h.recommendations));
      assert.ok(!h.recommendations.some((r) => r.includes('expires on')));

      const adapter = t.runtime.deps.platforms.adapters.linkedin;
      const credentials = { platformUserId: `urn:li:person:${approved.id}`, accessToken: t.runtime.deps.sealer.open(stored.access_token_enc ?? ''), refreshToken: t.runtime.deps.sealer.open(stored.refresh_token_enc ?? ''), expiresAt: stored.token_expires_at, scopes: stored.scopes.split(','), metadata: {} };
      const refreshed = await adapter.refresher?.refresh(credentials, clock.now());
      assert.ok(refreshed && refreshed.accessToken !== credentials.accessToken);
      assert.equal(refreshed.refreshToken, credentials.refreshToken);
      await assert.rejects(adapter.refresher?.refresh({ ...credentials, refreshToken: 'AQXnot-a-token' }, clock.now()) ?? Promise.resolve(), (e: Error & { kind?: string }) => e.kind === 'auth');
    });

    test('a refresh token given at a consent that ends in the choice is kept by the accounts selected from it', async () => {
      t.sandbox.updateSettings({ linkedin: { refreshTokens: true } });
      const walk = await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT });
      t.sandbox.updateSettings({ linkedin: { refreshTokens: false } });
      const pendingId = walk.location?.searchParams.get('pendingId') ?? '';
      const { pending } = (await (await t.request(`/api/v1/connect/pending/${pendingId}`, { key })).json()) as { pending: { options: Array<{ id: string; name: string }> } };
      const bakery = pending.options.find((o) => o.name === 'Sandbox Bakery')?.id ?? '';
      const res = await t.request(`/api/v1/connect/pending/${pendingId}/select`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionIds: [bakery] }) });
      assert.equal(res.status, 200, await res.clone().text());
      const [selected] = ((await res.json()) as { accounts: AccountBody[] }).accounts;
      const stored = await row(selected?.id ?? '');
      assert.notEqual(stored.refresh_token_enc, null, 'the refresh token of the consent is kept');
      const h = await health(selected?.id ?? '');
      assert.ok(h.recommendations.some((r) => /refresh token ends on .*365 days from consent/.test(r)), JSON.stringify(h.recommendations));
    });

    test('LINKEDIN_ORGANIZATIONS=0: only the member scopes are asked, and the member connects at once', async () => {
      const plain = await startConnectApp(dialect, { env: { LINKEDIN_ORGANIZATIONS: '0' } });
      try {
        const { key: plainKey } = await plain.tenant();
        const walk = await walkConnect(plain, plainKey, 'linkedin', { redirectUrl: CLIENT_REDIRECT });
        const accountId = walk.location?.searchParams.get('accountId') ?? '';
        assert.match(accountId, /^acc_/, walk.location?.toString());
        const authorize = plain.sandbox.journal.list({ host: 'www.linkedin.com', method: 'GET', path: '/oauth/v2/authorization' }).at(-1);
        assert.equal(authorize?.query.scope, 'openid profile w_member_social');
        assert.equal(plain.sandbox.journal.list({ host: 'api.linkedin.com', path: '/rest/organizationAcls' }).length, 0);
        const body = ((await (await plain.request(`/api/v1/accounts/${accountId}`, { key: plainKey })).json()) as { account: AccountBody }).account;
        assert.equal(body.displayName, 'Sandbox Member');
      } finally {
        await plain.close();
      }
    });

    test("cancelling on LinkedIn's consent page reaches the client as access_denied", async () => {
      const walk = await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT }, { decision: 'deny' });
      assert.equal(walk.callbackUrl.searchParams.get('error'), 'user_cancelled_authorize');
      assert.equal(walk.response.status, 302);
      assert.equal(walk.location?.searchParams.get('error'), 'access_denied');
      assert.equal(walk.location?.searchParams.get('accountId'), null);
    });

    test('an expired member token: health marks the account needs_reconnect', async () => {
      const member = solo();
      const id = (await walkConnect(t, key, 'linkedin', { redirectUrl: CLIENT_REDIRECT }, { subject: member.id })).location?.searchParams.get('accountId') ?? '';
      t.sandbox.expireToken(t.runtime.deps.sealer.open((await row(id)).access_token_enc ?? ''));
      const h = await health(id);
      assert.equal(h.status, 'needs_reconnect');
      assert.equal((await row(id)).status, 'needs_reconnect');
    });
  });
}
