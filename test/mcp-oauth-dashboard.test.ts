// The dashboard's part of the MCP OAuth flow, on both stores: a person without a session is sent
// to sign in and comes back to the pending authorization; the consent page names the client, its
// redirect host and the session's organization (escaped), and refuses a form without the CSRF
// token; the MCP clients page lists the organization's connections with when they connected and
// were last used, and Revoke (CSRF-protected, own organization only) ends the access at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addAccount, startPostsApp, type PostsApp } from './posts-support.ts';
import { callOk, httpClient } from './mcp-support.ts';
import { DashboardClient, signedIn, signInLink } from './dashboard-support.ts';
import { authorizeUrl, connect, consentFields, mcpStatus, pkce, REDIRECT, registeredClient, standardParams, token } from './mcp-oauth-support.ts';

for (const dialect of DIALECTS) {
  describe(`MCP clients in the dashboard [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect, { env: { MCP_REGISTRATIONS_PER_MINUTE: '1000' } });
      ({ organizationId: org } = await t.tenant());
    });
    after(async () => t.close());

    test('without a session: sign in through a link, come back to the pending authorization, approve', async () => {
      const clientId = await registeredClient(t, 'Hosted agent');
      const { verifier, challenge } = pkce();
      const browser = new DashboardClient(t.url);
      const start = await browser.open(authorizeUrl(t, standardParams(t, clientId, challenge)));
      assert.equal(start.status, 302);
      assert.match(start.location ?? '', /^\/dashboard\/authorize\?/);
      const consentUrl = start.location ?? '';
      const toSignIn = await browser.open(consentUrl);
      assert.equal(toSignIn.status, 303);
      assert.equal(toSignIn.location, '/dashboard/signin');
      assert.match(toSignIn.headers.get('set-cookie') ?? '', /socialapi_dashboard_resume=.*HttpOnly/i);
      const signIn = await browser.open('/dashboard/signin');
      assert.match(signIn.text, /An application asked to connect/);
      // The link an operator printed, opened in the same browser.
      const redeemed = await browser.open(await signInLink(t, org));
      assert.equal(redeemed.status, 303);
      assert.equal(redeemed.location, consentUrl);
      const consent = await browser.open(consentUrl);
      assert.equal(consent.status, 200);
      const done = await browser.submit('/dashboard/authorize', { ...consentFields(consent), decision: 'approve' });
      assert.equal(done.status, 303);
      const code = new URL(done.location ?? '').searchParams.get('code') ?? '';
      const exchanged = await token(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
      assert.equal(exchanged.status, 200);
      // A later sign-in goes to approvals as before: the way back was used once.
      const again = await browser.open(await signInLink(t, org));
      assert.equal(again.location, '/dashboard/approvals');
    });

    test('the consent page names the client, where it returns and the organization; a form without the CSRF token is refused', async () => {
      const clientId = await registeredClient(t, '<script>alert(1)</script> Agent', 'https://agent.example/oauth/cb');
      const { challenge } = pkce();
      const browser = await signedIn(t, org);
      const start = await browser.open(authorizeUrl(t, standardParams(t, clientId, challenge, { redirect_uri: 'https://agent.example/oauth/cb' })));
      const consent = await browser.open(start.location ?? '');
      assert.equal(consent.status, 200);
      assert.ok(consent.text.includes('&lt;script&gt;alert(1)&lt;/script&gt; Agent'));
      assert.ok(!consent.text.includes('<script>alert(1)'));
      assert.match(consent.text, /agent\.example/);
      assert.ok(consent.text.includes(org));
      assert.match(consent.text, /name="_csrf"/);
      assert.match(consent.text, /aria-current="page">MCP clients/);
      const codesBefore = await t.runtime.deps.store.db.selectFrom('mcp_codes').select('code_hash').execute();
      const forged = await browser.submit('/dashboard/authorize', { ...consentFields(consent), decision: 'approve' }, null);
      assert.equal(forged.status, 403);
      assert.equal(forged.location, null);
      const codesAfter = await t.runtime.deps.store.db.selectFrom('mcp_codes').select('code_hash').execute();
      assert.equal(codesAfter.length, codesBefore.length);
      // Without a session, a posted decision changes nothing either.
      const stranger = new DashboardClient(t.url);
      assert.equal((await stranger.submit('/dashboard/authorize', { ...consentFields(consent), decision: 'approve' }, 'x')).status, 401);
    });

    test('the MCP clients page lists connections; Revoke ends the access at once', async () => {
      const { tokens } = await connect(t, org, 'Listed agent');
      const mcp = await httpClient(t, tokens.access_token);
      await callOk(mcp, 'list_accounts');
      await mcp.close();
      const browser = await signedIn(t, org);
      const listed = await browser.open('/dashboard/mcp-clients');
      assert.equal(listed.status, 200);
      assert.match(listed.text, /Listed agent/);
      assert.match(listed.text, /127\.0\.0\.1:33418/);
      const grant = /action="\/dashboard\/mcp-clients\/(mcpg_[0-9a-z]+)\/revoke"/.exec(listed.text.slice(listed.text.indexOf('Listed agent')))?.[1] ?? '';
      assert.match(grant, /^mcpg_/);
      const row = await t.runtime.deps.store.db.selectFrom('mcp_grants').selectAll().where('id', '=', grant).executeTakeFirstOrThrow();
      assert.ok(row.last_used_at !== null, 'last used is recorded');
      assert.equal(row.approved_by, 'reviewer@example.com');

      // Another organization neither sees nor revokes it.
      const other = await t.tenant();
      const theirs = await signedIn(t, other.organizationId);
      assert.ok(!(await theirs.open('/dashboard/mcp-clients')).text.includes('Listed agent'));
      assert.equal((await theirs.submit(`/dashboard/mcp-clients/${grant}/revoke`)).status, 404);
      assert.equal((await mcpStatus(t, tokens.access_token)).status, 200);
      // Without the CSRF token: refused, still connected.
      assert.equal((await browser.submit(`/dashboard/mcp-clients/${grant}/revoke`, {}, null)).status, 403);
      assert.equal((await mcpStatus(t, tokens.access_token)).status, 200);

      const revoked = await browser.submit(`/dashboard/mcp-clients/${grant}/revoke`);
      assert.equal(revoked.status, 303);
      assert.equal(revoked.location, '/dashboard/mcp-clients?done=revoked');
      const refused = await mcpStatus(t, tokens.access_token);
      assert.equal(refused.status, 401);
      assert.match(refused.challenge ?? '', /error="invalid_token"/);
      const refresh = await token(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: row.client_id });
      assert.equal(refresh.body.error, 'invalid_grant');
      const after = await browser.open('/dashboard/mcp-clients?done=revoked');
      assert.match(after.text, /Revoked/);
      assert.ok(!after.text.includes(grant));
      assert.equal((await browser.submit(`/dashboard/mcp-clients/${grant}/revoke`)).status, 404);
    });

    test('in an organization that holds posts, a post made by a connected client waits for approval, named by the client', async () => {
      const held = await t.tenant({ approval: true });
      const account = await addAccount(t, held.organizationId, 'reddit');
      const { tokens } = await connect(t, held.organizationId, 'Careful agent');
      const mcp = await httpClient(t, tokens.access_token);
      const made = await callOk<{ post: { id: string; status: string } }>(mcp, 'create_post', { content: 'from an agent', publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox', title: 'A title' } }] });
      await mcp.close();
      assert.equal(made.post.status, 'pending_approval');
      const queue = await (await signedIn(t, held.organizationId)).open('/dashboard/approvals');
      assert.ok(queue.text.includes(made.post.id));
      assert.match(queue.text, /with the MCP client “Careful agent”/);
    });
  });
}
