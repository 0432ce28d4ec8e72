// Connecting YouTube end to end against the in-process sandbox (DESIGN "More platforms", Connect):
// Google's consent with offline access, the channel picked in the account chooser connected at
// once (its own channel, or the Brand Account), a pending choice when the token lists several
// channels, nothing_granted when it lists none, refresh by the account.refresh job (the refresh
// token kept: Google gives no new one), needs_reconnect on invalid_grant and on a 401, and health
// with the Testing-status note and the audit note (gone with YOUTUBE_AUDITED=1).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { ManualClock } from './harness/clock.ts';
import { waitFor } from './harness/wait.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';

interface AccountBody {
  id: string;
  platform: string;
  platformUserId: string;
  username: string | null;
  displayName: string | null;
  externalId: string | null;
}

interface Health {
  status: string;
  token: { valid: boolean | null };
  scopes: string[];
  missingPermissions: Array<{ permission: string; features: string[] }>;
  recommendations: string[];
}

const SCOPES = ['youtube.upload', 'youtube.force-ssl', 'yt-analytics.readonly'].map((s) => `https://www.googleapis.com/auth/${s}`);

for (const dialect of DIALECTS) {
  describe(`connect youtube (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    const clock = new ManualClock();
    let key: string;
    before(async () => {
      t = await startConnectApp(dialect, { clock, worker: true });
      ({ key } = await t.tenant());
    });
    after(() => t.close());

    const db = () => t.runtime.deps.store.db;
    const row = (id: string) => db().selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const account = async (id: string) => ((await (await t.request(`/api/v1/accounts/${id}`, { key })).json()) as { account: AccountBody }).account;
    const health = async (id: string) => {
      const res = await t.request(`/api/v1/accounts/${id}/health?refresh=1`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { health: Health }).health;
    };
    const channel = (title: string) => [...t.sandbox.people.youtubeChannels.values()].find((c) => c.title === title);

    test('the authorize URL asks offline access with consent; the channel picked connects at once with a refresh token', async () => {
      const start = await t.request('/api/v1/connect/youtube', { key });
      assert.equal(start.status, 200, await start.clone().text());
      const url = new URL(((await start.json()) as { authUrl: string }).authUrl);
      assert.match(url.pathname, /\/accounts\.google\.com\/o\/oauth2\/v2\/auth$/);
      assert.deepEqual(
        [url.searchParams.get('access_type'), url.searchParams.get('prompt'), url.searchParams.get('include_granted_scopes'), url.searchParams.get('response_type')],
        ['offline', 'consent', 'true', 'code'],
      );
      assert.deepEqual(url.searchParams.get('scope')?.split(' '), SCOPES);

      const walk = await walkConnect(t, key, 'youtube', { redirectUrl: CLIENT_REDIRECT, externalId: 'yt-1' });
      const id = walk.location?.searchParams.get('accountId') ?? '';
      assert.match(id, /^acc_/, walk.location?.toString());
      const body = await account(id);
      assert.deepEqual([body.platform, body.platformUserId, body.displayName, body.username, body.externalId], ['youtube', channel('Sandbox Bakery TV')?.id, 'Sandbox Bakery TV', '@sandboxbakerytv', 'yt-1']);
      const stored = await row(id);
      assert.notEqual(stored.refresh_token_enc, null);
      assert.ok(stored.token_expires_at !== null && Math.abs(stored.token_expires_at - (clock.now() + 3599_000)) < 5000);
      const h = await health(id);
      assert.equal(h.status, 'active');
      assert.equal(h.token.valid, true);
      assert.deepEqual(h.missingPermissions, []);
      assert.ok(h.recommendations.some((r) => r.includes('"Testing" status')), JSON.stringify(h.recommendations));
      assert.ok(h.recommendations.some((r) => r.includes('YOUTUBE_AUDITED=1')), JSON.stringify(h.recommendations));
    });

    test('the Brand Account picked in the account chooser connects as its own channel', async () => {
      const books = channel('Sandbox Books TV');
      const walk = await walkConnect(t, key, 'youtube', { redirectUrl: CLIENT_REDIRECT }, { subject: books?.identityId ?? '' });
      const id = walk.location?.searchParams.get('accountId') ?? '';
      assert.equal((await account(id)).platformUserId, books?.id);
    });

    test('a token listing several channels is a pending choice; one listing none is nothing_granted', async () => {
      const { identities } = t.sandbox.addGoogleUser({ name: 'Many', channels: [{ title: 'Many One' }, { title: 'Many Two' }], oneIdentity: true });
      const walk = await walkConnect(t, key, 'youtube', { redirectUrl: CLIENT_REDIRECT }, { subject: identities[0] ?? '' });
      const pendingId = walk.location?.searchParams.get('pendingId') ?? '';
      assert.match(pendingId, /^pend_/, walk.location?.toString());
      const { pending } = (await (await t.request(`/api/v1/connect/pending/${pendingId}`, { key })).json()) as { pending: { options: Array<{ id: string; name: string; kind: string }> } };
      assert.deepEqual(pending.options.map((o) => [o.kind, o.name]), [['channel', 'Many One'], ['channel', 'Many Two']]);
      const two = pending.options[1]?.id ?? '';
      const res = await t.request(`/api/v1/connect/pending/${pendingId}/select`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionIds: [two] }) });
      assert.equal(res.status, 200, await res.clone().text());
      const [selected] = ((await res.json()) as { accounts: AccountBody[] }).accounts;
      assert.equal(selected?.platformUserId, two);
      assert.notEqual((await row(selected?.id ?? '')).refresh_token_enc, null, 'the refresh token of the consent is kept');

      const bare = t.sandbox.addGoogleUser({ name: 'No Channel' });
      const none = await walkConnect(t, key, 'youtube', { redirectUrl: CLIENT_REDIRECT }, { subject: bare.identities[0] ?? '' });
      assert.equal(none.location?.searchParams.get('error'), 'nothing_granted', none.location?.toString());
      assert.match(none.location?.searchParams.get('error_description') ?? '', /^This Google account has no YouTube channel/);
    });

    test("cancelling on Google's consent page reaches the client as access_denied", async () => {
      const walk = await walkConnect(t, key, 'youtube', { redirectUrl: CLIENT_REDIRECT }, { decision: 'deny' });
      assert.equal(walk.location?.searchParams.get('error'), 'access_denied');
    });

    test('the refresh job renews the access token and keeps the refresh token; invalid_grant marks needs_reconnect', async () => {
      const { identities } = t.sandbox.addGoogleUser({ name: 'Refresher', channels: [{ title: 'Refresher TV' }] });
      const id = (await walkConnect(t, key, 'youtube', { redirectUrl: CLIENT_REDIRECT }, { subject: identities[0] ?? '' })).location?.searchParams.get('accountId') ?? '';
      const before = await row(id);
      const job = await db().selectFrom('jobs').selectAll().where('kind', '=', 'account.refresh').where('payload', 'like', `%${id}%`).executeTakeFirstOrThrow();
      assert.ok(before.token_expires_at !== null && job.run_at < before.token_expires_at);
      clock.advance(job.run_at - clock.now() + 1);
      const refreshed = await waitFor(async () => {
        const r = await row(id);
        return r.access_token_enc !== before.access_token_enc ? r : null;
      }, 5000, 'the refreshed token');
      const refresh = t.runtime.deps.sealer.open(refreshed.refresh_token_enc ?? '');
      assert.equal(refresh, t.runtime.deps.sealer.open(before.refresh_token_enc ?? ''), 'Google gives no new refresh token: the stored one is kept');
      assert.equal(refreshed.status, 'active');
      const next = await db().selectFrom('jobs').selectAll().where('dedupe_key', '=', `account.refresh:${id}:${refreshed.token_expires_at ?? 0}`).executeTakeFirstOrThrow();
      // The person removes the app's access in their Google account: the grant and its tokens end.
      t.sandbox.revokeToken(refresh, 'deauthorized');
      clock.advance(next.run_at - clock.now() + 1);
      await waitFor(async () => (await row(id)).status === 'needs_reconnect', 5000, 'needs_reconnect after invalid_grant');
    });

    test('a token answered 401 authError: health says invalid and the account needs reconnecting', async () => {
      const { identities } = t.sandbox.addGoogleUser({ name: 'Revoked', channels: [{ title: 'Revoked TV' }] });
      const id = (await walkConnect(t, key, 'youtube', { redirectUrl: CLIENT_REDIRECT }, { subject: identities[0] ?? '' })).location?.searchParams.get('accountId') ?? '';
      t.sandbox.revokeToken(t.runtime.deps.sealer.open((await row(id)).access_token_enc ?? ''));
      const h = await health(id);
      assert.deepEqual([h.token.valid, h.status], [false, 'needs_reconnect']);
    });

    test('YOUTUBE_AUDITED=1: health no longer recommends the audit', async () => {
      const audited = await startConnectApp(dialect, { env: { YOUTUBE_AUDITED: '1' } });
      try {
        const { key: auditedKey } = await audited.tenant();
        const id = (await walkConnect(audited, auditedKey, 'youtube', { redirectUrl: CLIENT_REDIRECT })).location?.searchParams.get('accountId') ?? '';
        const res = await audited.request(`/api/v1/accounts/${id}/health?refresh=1`, { key: auditedKey });
        const h = ((await res.json()) as { health: Health }).health;
        assert.ok(!h.recommendations.some((r) => r.includes('YOUTUBE_AUDITED')), JSON.stringify(h.recommendations));
        assert.ok(h.recommendations.some((r) => r.includes('"Testing" status')));
      } finally {
        await audited.close();
      }
    });
  });
}
