// Connecting Bluesky end to end against the in-process sandbox (DESIGN "More platforms", Connect;
// bluesky.md §2): GET /connect/bluesky answers the service's own page, whose form takes a handle
// (or a DID) and an app password; the service resolves the handle at the entryway, reads the
// DID document at plc.directory for the PDS, calls createSession there, and stores only the two
// JWTs (never the password). A wrong password or the main password shows the page again with
// words the person can act on; the fifth wrong try spends the state. The refresh job swaps the
// refresh JWT; a revoked app password makes the account needs_reconnect. Both stores.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { startConnectApp } from './harness/connect.ts';
import { ManualClock } from './harness/clock.ts';
import { waitFor } from './harness/wait.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';
import { jwtClaims } from '../src/platforms/bluesky/connect.ts';
import { PlatformError } from '../src/platforms/errors.ts';
import { credentialsOf } from '../src/modules/accounts/credentials.ts';
import { connectBluesky, control, newBlueskyPerson, REDIRECT, startConnect, submitPage } from './bluesky-support.ts';
import { signedIn } from './dashboard-support.ts';

for (const dialect of DIALECTS) {
  describe(`connect bluesky (${dialect})`, { skip: skipReason(dialect) }, () => {
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
    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const health = async (id: string) => {
      const res = await t.request(`/api/v1/accounts/${id}/health?refresh=1`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { health: { status: string; token: { valid: boolean | null } } }).health;
    };

    test('the page asks for the handle and an app password, links to Bluesky’s settings and says the main password is refused', async () => {
      const { pageUrl } = await startConnect(t, key);
      assert.equal(pageUrl.pathname, '/api/v1/connect/bluesky/signup');
      const page = await fetch(pageUrl);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /name="identifier"/);
      assert.match(html, /name="password" type="password"/);
      assert.match(html, /href="https:\/\/bsky\.app\/settings\/app-passwords"/);
      assert.match(html, /main password is refused/);
    });

    test('handle → DID at the entryway, DID → PDS from plc.directory, createSession there; the account stored with only the JWTs', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const start = mark();
      const id = await connectBluesky(t, key, person);
      const account = await row(id);
      assert.deepEqual([account.platform, account.platform_user_id, account.username, account.status], ['bluesky', person.did, person.handle, 'active']);
      assert.match(account.display_name ?? '', /Sandbox/);
      const metadata = JSON.parse(account.metadata) as Record<string, unknown>;
      assert.equal(metadata.pds, 'https://bsky.social');
      assert.equal(metadata.handle, person.handle);
      const calls = t.sandbox.journal.list({ after: start });
      const resolve = calls.find((c) => c.path === '/xrpc/com.atproto.identity.resolveHandle');
      assert.equal(resolve?.query.handle, person.handle);
      assert.ok(calls.some((c) => c.host === 'plc.directory' && c.path === `/${person.did}`), 'the DID document was read');
      const session = calls.find((c) => c.path === '/xrpc/com.atproto.server.createSession');
      assert.equal((session?.body as Record<string, string>).identifier, person.did);
      // The tokens are the session's, sealed; the access JWT's exp is the stored expiry; the password is nowhere.
      const access = t.runtime.deps.sealer.open(account.access_token_enc ?? '');
      const refresh = t.runtime.deps.sealer.open(account.refresh_token_enc ?? '');
      assert.equal(account.token_expires_at, Number(jwtClaims(access).exp) * 1000);
      assert.equal(jwtClaims(refresh).sub, person.did);
      const stored = JSON.stringify(await db().selectFrom('accounts').selectAll().where('id', '=', id).execute()) + JSON.stringify(await db().selectFrom('connect_states').selectAll().execute());
      assert.ok(!stored.includes(person.appPassword), 'the app password is not stored');
      assert.ok(![access, refresh].some((jwt) => JSON.stringify(jwtClaims(jwt)).includes(person.appPassword)));
    });

    test('a DID typed directly skips resolveHandle', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const { pageUrl, state } = await startConnect(t, key);
      const start = mark();
      const { location } = await submitPage(pageUrl, state, person.did, person.appPassword);
      const id = location?.searchParams.get('accountId');
      assert.ok(id, location?.toString());
      assert.equal((await row(id)).username, person.handle);
      assert.ok(!t.sandbox.journal.list({ after: start }).some((c) => c.path === '/xrpc/com.atproto.identity.resolveHandle'));
    });

    test('a wrong app password and the main password show the page again with what to do; an unknown handle says so', async () => {
      const person = newBlueskyPerson(t.sandbox, { emailAuthFactor: true });
      const { pageUrl, state } = await startConnect(t, key);
      const wrong = await submitPage(pageUrl, state, person.handle, 'aaaa-bbbb-cccc-dddd');
      assert.equal(wrong.response.status, 400);
      assert.match(wrong.html, /handle or app password is wrong/);
      assert.match(wrong.html, new RegExp(`value="${person.handle.replace(/\./g, '\\.')}"`), 'the handle is kept');
      assert.ok(!wrong.html.includes('aaaa-bbbb-cccc-dddd'), 'the password is not echoed');
      const main = await submitPage(pageUrl, state, person.handle, person.mainPassword);
      assert.equal(main.response.status, 400);
      assert.match(main.html, /looks like your main password: create an app password/);
      const unknown = await submitPage(pageUrl, state, 'nobody-here.bsky.social', person.appPassword);
      assert.match(unknown.html, /No Bluesky account has the handle nobody-here\.bsky\.social/);
      // The same state still works with the app password.
      const ok = await submitPage(pageUrl, state, person.handle, person.appPassword);
      assert.ok(ok.location?.searchParams.get('accountId'), ok.html);
    });

    test('the main password of an account without two-factor sign-in: its session (scope com.atproto.access) is ended and the page asks for an app password', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const { pageUrl, state } = await startConnect(t, key);
      const start = mark();
      const main = await submitPage(pageUrl, state, person.handle, person.mainPassword);
      assert.equal(main.response.status, 400);
      assert.match(main.html, /looks like your main password: create an app password/);
      const calls = t.sandbox.journal.list({ after: start });
      assert.equal(calls.find((c) => c.path === '/xrpc/com.atproto.server.createSession')?.status, 200, 'Bluesky made a session');
      assert.equal(calls.find((c) => c.path === '/xrpc/com.atproto.server.deleteSession')?.status, 200, 'and the service ended it');
      assert.deepEqual(await db().selectFrom('accounts').select('id').where('platform_user_id', '=', person.did).execute(), []);
    });

    test('the fifth wrong try spends the state: nothing connected, the page link expired', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const { pageUrl, state } = await startConnect(t, key);
      for (let i = 0; i < 4; i++) assert.equal((await submitPage(pageUrl, state, person.handle, `wrong-${i}`)).response.status, 400);
      const fifth = await submitPage(pageUrl, state, person.handle, 'wrong-5');
      assert.equal(fifth.location?.origin + (fifth.location?.pathname ?? ''), REDIRECT);
      assert.equal(fifth.location?.searchParams.get('error'), 'access_denied');
      assert.equal(fifth.location?.searchParams.get('accountId'), null);
      const again = await submitPage(pageUrl, state, person.handle, person.appPassword);
      assert.equal(again.response.status, 400);
      assert.match(again.html, /expired/);
      const connected = await db().selectFrom('accounts').select('id').where('platform_user_id', '=', person.did).execute();
      assert.deepEqual(connected, []);
    });

    test('the refresh job swaps the refresh JWT; health reads getSession; a revoked app password: refresh refused as auth, health marks the account needs_reconnect', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const id = await connectBluesky(t, key, person);
      const before = await row(id);
      const h = await health(id);
      assert.deepEqual([h.token.valid, h.status], [true, 'active']);
      const job = await db().selectFrom('jobs').selectAll().where('kind', '=', 'account.refresh').where('payload', 'like', `%${id}%`).executeTakeFirstOrThrow();
      assert.ok(before.token_expires_at !== null && job.run_at < before.token_expires_at);
      const start = mark();
      clock.advance(job.run_at - clock.now() + 1);
      const refreshed = await waitFor(async () => {
        const r = await row(id);
        return r.access_token_enc !== before.access_token_enc ? r : null;
      }, 5000, 'the refreshed token');
      // The journal keeps the last 4 characters of a token (other accounts' refreshes may run too).
      const sent = `Bearer ***${t.runtime.deps.sealer.open(before.refresh_token_enc ?? '').slice(-4)}`;
      assert.ok(t.sandbox.journal.list({ after: start }).some((c) => c.path === '/xrpc/com.atproto.server.refreshSession' && c.headers.authorization === sent));
      assert.notEqual(refreshed.refresh_token_enc, before.refresh_token_enc);
      assert.equal(refreshed.status, 'active');

      await control(t, 'app-passwords/revoke', { actor: person.did });
      // The revoked app password's session: the refresh is refused as `auth`, and health marks the account.
      const credentials = credentialsOf(await row(id), t.runtime.deps.sealer);
      const refresher = t.runtime.deps.platforms.adapters.bluesky.refresher;
      await assert.rejects(refresher?.refresh(credentials, clock.now()) ?? Promise.resolve(), (error: unknown) => error instanceof PlatformError && error.kind === 'auth');
      const h2 = await health(id);
      assert.deepEqual([h2.token.valid, h2.status], [false, 'needs_reconnect']);
      assert.equal(await statusOf(id), 'needs_reconnect');
    });

    test('health of an account taken down (getSession 401 AccountTakedown): invalid, needs_reconnect', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const id = await connectBluesky(t, key, person);
      await control(t, 'account', { actor: person.did, takenDown: true });
      const h = await health(id);
      assert.deepEqual([h.token.valid, h.status], [false, 'needs_reconnect']);
    });

    test('health reads getSession: a handle changed on Bluesky becomes the account’s username', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const id = await connectBluesky(t, key, person);
      const account = t.sandbox.people.blueskyAccounts.get(person.did);
      assert.ok(account);
      account.handle = `renamed-${person.handle}`;
      const h = await health(id);
      assert.deepEqual([h.token.valid, h.status], [true, 'active']);
      assert.equal((await row(id)).username, `renamed-${person.handle}`);
      assert.equal((await row(id)).platform_user_id, person.did, 'the DID stays the account id');
    });

    test('the dashboard’s reconnect button opens the page; signing in there again reconnects the same account and comes back to it', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const id = await connectBluesky(t, key, person);
      const client = await signedIn(t, organizationId);
      const reconnect = await client.submit(`/dashboard/accounts/${id}/reconnect`);
      assert.equal(reconnect.status, 303);
      const page = new URL(reconnect.location ?? '', t.url);
      assert.equal(page.pathname, '/api/v1/connect/bluesky/signup');
      const { location } = await submitPage(page, page.searchParams.get('state') ?? '', person.handle, person.appPassword);
      assert.equal(location?.pathname, `/dashboard/accounts/${id}`);
      assert.equal(location?.searchParams.get('accountId'), id);
      assert.equal(await statusOf(id), 'active');
    });

    test('tenant isolation: the account belongs to the organization whose key started the connect', async () => {
      const other = await t.tenant();
      const person = newBlueskyPerson(t.sandbox);
      const id = await connectBluesky(t, other.key, person);
      assert.equal((await row(id)).organization_id, other.organizationId);
      assert.notEqual(other.organizationId, organizationId);
      const mine = await t.request(`/api/v1/accounts/${id}`, { key });
      assert.equal(mine.status, 404);
      const list = (await (await t.request('/api/v1/accounts?platform=bluesky', { key })).json()) as { accounts?: Array<{ id: string }>; data?: Array<{ id: string }> };
      assert.ok(!(list.accounts ?? list.data ?? []).some((a) => a.id === id));
      const theirs = await t.request(`/api/v1/accounts/${id}`, { key: other.key });
      assert.equal(theirs.status, 200);
    });
  });
}
