// Remote MCP clients through the OAuth flow, on both stores, over real HTTP: discovery from the
// 401 of /mcp, both metadata documents, dynamic registration and its refusals, sign-in and
// consent in the dashboard, the PKCE code exchange, the SDK's own MCP client on the access token
// (same data as the API), refresh rotation and replay, revocation, every refusal of the
// authorize and token steps, isolation between organizations, tokens kept only as SHA-256, and
// the SDK's OAuth client provider driving the whole flow itself.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { MAX_PENDING_PER_SOURCE } from '../src/mcp/oauth/clients.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { ManualClock } from './harness/clock.ts';
import { addAccount, createPost, startPostsApp, type PostsApp } from './posts-support.ts';
import { callError, callOk, httpClient, operations } from './mcp-support.ts';
import { signedIn } from './dashboard-support.ts';
import { authorizeUrl, connect, consentFields, decide, mcpStatus, pkce, REDIRECT, register, registeredClient, revoke, standardParams, token } from './mcp-oauth-support.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

for (const dialect of DIALECTS) {
  describe(`MCP remote clients through OAuth [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let clock: ManualClock;
    let org: string;
    let key: string;

    before(async () => {
      clock = new ManualClock();
      t = await startPostsApp(dialect, { clock, env: { MCP_REGISTRATIONS_PER_MINUTE: '1000' } });
      ({ organizationId: org, key } = await t.tenant());
    });
    after(async () => t.close());

    test('discovery: the 401 of /mcp names the resource metadata, which names this authorization server', async () => {
      const none = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      assert.equal(none.status, 401);
      const challenge = none.headers.get('www-authenticate') ?? '';
      assert.equal(challenge, `Bearer resource_metadata="${t.url}/.well-known/oauth-protected-resource"`);
      const refused = await mcpStatus(t, `mcp_at_${'x'.repeat(43)}`);
      assert.equal(refused.status, 401);
      assert.match(refused.challenge ?? '', /^Bearer resource_metadata="[^"]+", error="invalid_token"/);

      const resource = (await (await fetch(`${t.url}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
      assert.equal(resource.resource, `${t.url}/mcp`);
      assert.deepEqual(resource.authorization_servers, [t.url]);
      const byPath = await fetch(`${t.url}/.well-known/oauth-protected-resource/mcp`);
      assert.deepEqual(await byPath.json(), resource);
      const server = (await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      assert.equal(server.issuer, t.url);
      assert.equal(server.authorization_endpoint, `${t.url}/oauth/authorize`);
      assert.equal(server.token_endpoint, `${t.url}/oauth/token`);
      assert.equal(server.registration_endpoint, `${t.url}/oauth/register`);
      assert.equal(server.revocation_endpoint, `${t.url}/oauth/revoke`);
      assert.deepEqual(server.response_types_supported, ['code']);
      assert.deepEqual(server.grant_types_supported, ['authorization_code', 'refresh_token']);
      assert.deepEqual(server.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(server.token_endpoint_auth_methods_supported, ['none']);
      // Protocol endpoints, not operations: neither in the API document nor among the tools.
      assert.ok(!(await operations(t)).some((op) => /oauth|well-known|dashboard/.test(op.path)));
    });

    test('registration: 201 with a client id; bad metadata is 400 in the RFC 7591 shape, naming the field', async () => {
      const ok = await register(t, { client_name: 'Agent', redirect_uris: ['https://agent.example/cb', 'http://localhost:8976/cb'], token_endpoint_auth_method: 'client_secret_basic' });
      assert.equal(ok.status, 201);
      assert.match(ok.body.client_id, /^mcpc_/);
      assert.deepEqual(ok.body.redirect_uris, ['https://agent.example/cb', 'http://localhost:8976/cb']);
      assert.equal(ok.body.token_endpoint_auth_method, 'none');
      assert.equal(ok.body.client_name, 'Agent');
      const cases: Array<[unknown, string, RegExp]> = [
        [{ redirect_uris: ['http://agent.example/cb'] }, 'invalid_redirect_uri', /redirect_uris\[0\].*https/],
        [{ redirect_uris: ['https://agent.example/cb#frag'] }, 'invalid_redirect_uri', /fragment/],
        [{ redirect_uris: [] }, 'invalid_redirect_uri', /redirect_uris/],
        [{ client_name: 'x' }, 'invalid_redirect_uri', /redirect_uris/],
        [{ redirect_uris: ['https://a.example/cb'], client_name: 42 }, 'invalid_client_metadata', /client_name/],
        [{ redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata', /grant_types/],
        [[1, 2], 'invalid_client_metadata', /JSON object/],
      ];
      const huge = await register(t, { redirect_uris: ['https://a.example/cb'], client_name: 'x', contacts: ['y'.repeat(20_000)] });
      assert.equal(huge.status, 400);
      assert.equal(huge.body.error, 'invalid_request');
      assert.match(huge.body.error_description ?? '', /too large/);
      for (const [body, error, description] of cases) {
        const res = await register(t, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, error, JSON.stringify(body));
        assert.match(res.body.error_description ?? '', description);
      }
    });

    test('end to end: sign in, approve, exchange with the verifier, and the SDK client works on the token', async () => {
      const clientId = await registeredClient(t, 'E2E agent');
      const { verifier, challenge } = pkce();
      const url = authorizeUrl(t, standardParams(t, clientId, challenge, { state: 'xyz' }));
      const browser = await signedIn(t, org);
      const back = await decide(browser, url, 'approve');
      assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
      assert.equal(back.searchParams.get('state'), 'xyz');
      assert.equal(back.searchParams.get('iss'), t.url);
      const code = back.searchParams.get('code') ?? '';
      assert.match(code, /^mcp_ac_[0-9A-Za-z]{43}$/);

      const exchanged = await token(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
      assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
      assert.equal(exchanged.headers.get('cache-control'), 'no-store');
      assert.match(exchanged.body.access_token, /^mcp_at_[0-9A-Za-z]{43}$/);
      assert.match(exchanged.body.refresh_token, /^mcp_rt_[0-9A-Za-z]{43}$/);
      assert.equal(exchanged.body.token_type, 'Bearer');
      assert.equal(exchanged.body.expires_in, 3600);

      const account = await addAccount(t, org, 'threads');
      const created = await createPost(t, key, { content: 'seen through OAuth', platforms: [{ accountId: account.id }] });
      const mcp = await httpClient(t, exchanged.body.access_token, {}, 'all');
      try {
        const { tools } = await mcp.client.listTools();
        // Every operation, and get_platform_options.
        assert.equal(tools.length, (await operations(t)).length + 1);
        assert.deepEqual(await callOk(mcp, 'list_accounts'), await (await t.request('/api/v1/accounts', { key })).json());
        assert.deepEqual(await callOk(mcp, 'get_post', { id: created.body.post.id }), await (await t.request(`/api/v1/posts/${created.body.post.id}`, { key })).json());
        // A write runs the real route too, as this organization.
        const made = await callOk<{ post: { id: string } }>(mcp, 'create_post', { content: 'made by a remote agent', platforms: [{ accountId: account.id }] });
        assert.equal((await t.request(`/api/v1/posts/${made.post.id}`, { key })).status, 200);
      } finally {
        await mcp.close();
      }
      // The access token is for /mcp only: the REST API refuses it.
      const rest = await t.request('/api/v1/accounts', { key: exchanged.body.access_token });
      assert.equal(rest.status, 401);
      assert.match(((await rest.json()) as { error: { message: string } }).error.message, /only at \/mcp/);
    });

    test('refresh rotates both tokens; a spent refresh token presented again revokes the connection', async () => {
      const { clientId, tokens } = await connect(t, org);
      const refreshed = await token(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.notEqual(refreshed.body.refresh_token, tokens.refresh_token);
      assert.notEqual(refreshed.body.access_token, tokens.access_token);
      assert.equal((await mcpStatus(t, refreshed.body.access_token)).status, 200);
      // Another client cannot use it.
      const other = await registeredClient(t, 'Other');
      const stolen = await token(t, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: other });
      assert.equal(stolen.status, 400);
      assert.equal(stolen.body.error, 'invalid_grant');
      // Replay of the spent one: refused, and every token of the connection stops working.
      const replay = await token(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
      assert.equal((await mcpStatus(t, refreshed.body.access_token)).status, 401);
      const after = await token(t, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: clientId });
      assert.equal(after.body.error, 'invalid_grant');
    });

    test('the code is single use: a second exchange is refused and revokes what the first one issued', async () => {
      const clientId = await registeredClient(t);
      const { verifier, challenge } = pkce();
      const back = await decide(await signedIn(t, org), authorizeUrl(t, standardParams(t, clientId, challenge)), 'approve');
      const fields = { grant_type: 'authorization_code', code: back.searchParams.get('code') ?? '', redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier };
      const first = await token(t, fields);
      assert.equal(first.status, 200);
      const second = await token(t, fields);
      assert.equal(second.status, 400);
      assert.equal(second.body.error, 'invalid_grant');
      assert.match(second.body.error_description ?? '', /already used/);
      assert.equal((await mcpStatus(t, first.body.access_token)).status, 401);
    });

    test('two concurrent exchanges of one code, or refreshes of one token: one answers, and the replay ends the connection', async () => {
      const clientId = await registeredClient(t);
      const { verifier, challenge } = pkce();
      const back = await decide(await signedIn(t, org), authorizeUrl(t, standardParams(t, clientId, challenge)), 'approve');
      const fields = { grant_type: 'authorization_code', code: back.searchParams.get('code') ?? '', redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier };
      const exchanges = await Promise.all([token(t, fields), token(t, fields)]);
      assert.deepEqual(exchanges.map((r) => r.status).sort(), [200, 400]);
      const winner = exchanges.find((r) => r.status === 200)?.body;
      assert.equal((await mcpStatus(t, winner?.access_token ?? '')).status, 401);

      const { clientId: refresher, tokens } = await connect(t, org);
      const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: refresher };
      const refreshes = await Promise.all([token(t, refresh), token(t, refresh)]);
      assert.deepEqual(refreshes.map((r) => r.status).sort(), [200, 400]);
      assert.equal((await mcpStatus(t, refreshes.find((r) => r.status === 200)?.body.access_token ?? '')).status, 401);
    });

    test('the token endpoint refuses a wrong verifier, another redirect_uri or client, an expired code, and bad requests', async () => {
      const clientId = await registeredClient(t);
      const { verifier, challenge } = pkce();
      const browser = await signedIn(t, org);
      const code = async () => (await decide(browser, authorizeUrl(t, standardParams(t, clientId, challenge)), 'approve')).searchParams.get('code') ?? '';
      const base = { grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier };
      const expectGrant = async (fields: Record<string, string>, description: RegExp) => {
        const res = await token(t, fields);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error, 'invalid_grant');
        assert.match(res.body.error_description ?? '', description);
        assert.equal(res.headers.get('cache-control'), 'no-store');
      };
      const first = await code();
      await expectGrant({ ...base, code: first, code_verifier: pkce().verifier }, /code_verifier/);
      await expectGrant({ ...base, code: first, redirect_uri: 'http://127.0.0.1:33418/other' }, /redirect_uri/);
      const other = await registeredClient(t, 'Other');
      await expectGrant({ ...base, code: first, client_id: other }, /another client/);
      // None of the refusals spent it: the right request still works.
      assert.equal((await token(t, { ...base, code: first })).status, 200);
      const late = await code();
      clock.advance(61_000);
      await expectGrant({ ...base, code: late }, /expired/);
      await expectGrant({ ...base, code: `mcp_ac_${'0'.repeat(43)}` }, /unknown/);

      const unsupported = await token(t, { grant_type: 'password', client_id: clientId });
      assert.equal(unsupported.body.error, 'unsupported_grant_type');
      const noClient = await token(t, { grant_type: 'authorization_code', code: first, redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(noClient.status, 401);
      assert.equal(noClient.body.error, 'invalid_client');
      const badBasic = await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('%zz:').toString('base64')}` }, body: 'grant_type=refresh_token&refresh_token=x' });
      assert.equal(badBasic.status, 401);
      const viaBasic = await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:`).toString('base64')}` }, body: 'grant_type=refresh_token&refresh_token=x' });
      assert.equal(((await viaBasic.json()) as { error: string }).error, 'invalid_grant');
      const noVerifier = await token(t, { grant_type: 'authorization_code', code: first, redirect_uri: REDIRECT, client_id: clientId });
      assert.equal(noVerifier.status, 400);
      assert.equal(noVerifier.body.error, 'invalid_request');
      assert.match(noVerifier.body.error_description ?? '', /code_verifier/);
      const wrongResource = await token(t, { ...base, code: first, resource: 'https://elsewhere.example/mcp' });
      assert.equal(wrongResource.body.error, 'invalid_target');
      const json = await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant_type=x' });
      assert.equal(json.status, 400);
      assert.equal(((await json.json()) as { error: string }).error, 'invalid_request');
    });

    test('authorize: an untrusted redirect is an error page; later errors go back to an approved client', async () => {
      // Approved once: its connection exists, so its redirect URI is one a person trusted.
      const { clientId } = await connect(t, org);
      const { challenge } = pkce();
      const browser = await signedIn(t, org);
      for (const params of [standardParams(t, clientId, challenge, { redirect_uri: 'https://evil.example/cb' }), standardParams(t, 'mcpc_unknown', challenge), standardParams(t, clientId, challenge, { client_id: undefined })]) {
        const res = await browser.open(authorizeUrl(t, params));
        assert.equal(res.status, 400);
        assert.equal(res.location, null);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/);
        assert.match(res.text, /not valid/);
      }
      const errorOf = async (extra: Record<string, string | undefined>) => {
        const res = await browser.open(authorizeUrl(t, standardParams(t, clientId, challenge, extra)));
        assert.equal(res.status, 302, res.text);
        const back = new URL(res.location ?? '');
        assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
        assert.equal(back.searchParams.get('state'), 'st-1');
        assert.equal(back.searchParams.get('code'), null);
        return { error: back.searchParams.get('error'), description: back.searchParams.get('error_description') ?? '' };
      };
      const missing = await errorOf({ code_challenge: undefined });
      assert.equal(missing.error, 'invalid_request');
      assert.match(missing.description, /code_challenge/);
      const plain = await errorOf({ code_challenge_method: 'plain' });
      assert.equal(plain.error, 'invalid_request');
      assert.match(plain.description, /S256/);
      assert.equal((await errorOf({ code_challenge_method: undefined })).error, 'invalid_request');
      assert.equal((await errorOf({ response_type: 'token' })).error, 'unsupported_response_type');
      assert.equal((await errorOf({ resource: 'https://elsewhere.example/mcp' })).error, 'invalid_target');
      // The consent page checks again: a tampered form is refused the same way.
      const res = await browser.open(authorizeUrl(t, standardParams(t, clientId, challenge)));
      const consent = await browser.open(res.location ?? '');
      const tampered = await browser.submit('/dashboard/authorize', { ...consentFields(consent), code_challenge_method: 'plain', decision: 'approve' });
      assert.equal(tampered.status, 303);
      assert.equal(new URL(tampered.location ?? '').searchParams.get('error'), 'invalid_request');
    });

    test('deny sends an approved client access_denied with its state, and issues nothing', async () => {
      const { clientId } = await connect(t, org);
      const { challenge } = pkce();
      const back = await decide(await signedIn(t, org), authorizeUrl(t, standardParams(t, clientId, challenge)), 'deny');
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('state'), 'st-1');
      assert.equal(back.searchParams.get('code'), null);
    });

    test('a client nobody approved is never redirected to: its errors, and a denial, are our own page', async () => {
      // Anyone can register a client with any redirect URI, without a credential.
      const registered = await register(t, { client_name: 'Lure', redirect_uris: ['https://evil.example/landing'] });
      assert.equal(registered.status, 201);
      const clientId = registered.body.client_id;
      const { challenge } = pkce();
      const lure = (extra: Record<string, string | undefined>) => authorizeUrl(t, standardParams(t, clientId, challenge, { redirect_uri: 'https://evil.example/landing', ...extra }));
      // Without any session, the errors that would have gone back to the client stay here.
      for (const extra of [{ response_type: 'token' }, { code_challenge: undefined }, { code_challenge_method: 'plain' }, { resource: 'https://elsewhere.example/mcp' }]) {
        const res = await fetch(lure(extra), { redirect: 'manual' });
        const text = await res.text();
        assert.equal(res.status, 400, JSON.stringify(extra));
        assert.equal(res.headers.get('location'), null);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/);
        assert.match(text, /refused/);
        assert.ok(!text.includes('evil.example'), 'the page offers no link to the client');
      }
      // The consent page and its form do the same, and so does a denial.
      const browser = await signedIn(t, org);
      const start = await browser.open(lure({}));
      assert.equal(start.status, 302);
      const consent = await browser.open(start.location ?? '');
      assert.equal(consent.status, 200);
      const tampered = await browser.submit('/dashboard/authorize', { ...consentFields(consent), code_challenge_method: 'plain', decision: 'approve' });
      assert.equal(tampered.status, 400);
      assert.equal(tampered.location, null);
      const denied = await browser.submit('/dashboard/authorize', { ...consentFields(await browser.open(start.location ?? '')), decision: 'deny' });
      assert.equal(denied.status, 200);
      assert.equal(denied.location, null);
      assert.match(denied.text, /Nothing was shared with Lure/);
    });

    test('the cap on unapproved registrations counts per source address, so one address cannot block another', async () => {
      const agents: Agent[] = [];
      const from = (address: string) => {
        const dispatcher = new Agent({ localAddress: address });
        agents.push(dispatcher);
        return async () => {
          const res = await undiciFetch(`${t.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }), dispatcher });
          return { status: res.status, body: (await res.json()) as { error?: string; error_description?: string } };
        };
      };
      const flooder = from('127.0.0.2');
      for (let i = 0; i < MAX_PENDING_PER_SOURCE; i++) assert.equal((await flooder()).status, 201);
      const capped = await flooder();
      assert.equal(capped.status, 429);
      assert.equal(capped.body.error, 'too_many_requests');
      assert.match(capped.body.error_description ?? '', /from this address/);
      // Another address registers all the same.
      assert.equal((await from('127.0.0.3')()).status, 201);
      const rows = await t.runtime.deps.store.db.selectFrom('mcp_clients').select('registered_from').where('registered_from', '=', '127.0.0.2').execute();
      assert.equal(rows.length, MAX_PENDING_PER_SOURCE);
      // An hour later the flood has expired, and the address may register again.
      clock.advance(3_600_000 + 1);
      assert.equal((await flooder()).status, 201);
      await Promise.all(agents.map((agent) => agent.close()));
    });

    test('an unapproved registration expires within an hour; an approved client stays', async () => {
      const waiting = await registeredClient(t, 'Waiting');
      const { clientId: approved } = await connect(t, org);
      const { challenge } = pkce();
      clock.advance(3_600_000 + 1);
      const gone = await fetch(authorizeUrl(t, standardParams(t, waiting, challenge)), { redirect: 'manual' });
      assert.equal(gone.status, 400);
      assert.match(await gone.text(), /not registered here/);
      const refused = await token(t, { grant_type: 'authorization_code', code: 'mcp_ac_x', redirect_uri: REDIRECT, client_id: waiting, code_verifier: 'v'.repeat(43) });
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error, 'invalid_client');
      const kept = await fetch(authorizeUrl(t, standardParams(t, approved, challenge)), { redirect: 'manual' });
      assert.equal(kept.status, 302);
      await kept.body?.cancel();
      // The next registration sweeps the expired one away.
      await registeredClient(t, 'Next');
      assert.equal(await t.runtime.deps.store.db.selectFrom('mcp_clients').select('id').where('id', '=', waiting).executeTakeFirst(), undefined);
    });

    test('revocation (RFC 7009): an access token alone, or the whole connection by its refresh token', async () => {
      const { clientId, tokens } = await connect(t, org);
      assert.equal(await revoke(t, { token: tokens.access_token, client_id: clientId }), 200);
      assert.equal((await mcpStatus(t, tokens.access_token)).status, 401);
      const refreshed = await token(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
      assert.equal(refreshed.status, 200);
      assert.equal(await revoke(t, { token: refreshed.body.refresh_token, client_id: clientId, token_type_hint: 'refresh_token' }), 200);
      assert.equal((await mcpStatus(t, refreshed.body.access_token)).status, 401);
      // Unknown tokens, and another client's, answer 200 and change nothing.
      assert.equal(await revoke(t, { token: 'nonsense', client_id: clientId }), 200);
      const other = await connect(t, org);
      assert.equal(await revoke(t, { token: other.tokens.access_token, client_id: clientId }), 200);
      assert.equal((await mcpStatus(t, other.tokens.access_token)).status, 200);
    });

    test('an access token expires after an hour', async () => {
      const { tokens } = await connect(t, org);
      assert.equal((await mcpStatus(t, tokens.access_token)).status, 200);
      clock.advance(3_600_000);
      const expired = await mcpStatus(t, tokens.access_token);
      assert.equal(expired.status, 401);
      assert.match(expired.challenge ?? '', /invalid_token/);
      // A day after expiry its row is swept by the next issuance.
      clock.advance(24 * 3_600_000 + 1);
      await connect(t, org);
      const db = t.runtime.deps.store.db;
      assert.equal(await db.selectFrom('mcp_tokens').select('token_hash').where('token_hash', '=', sha256(tokens.access_token)).executeTakeFirst(), undefined);
      assert.ok(await db.selectFrom('mcp_tokens').select('token_hash').where('token_hash', '=', sha256(tokens.refresh_token)).executeTakeFirst(), 'the refresh token lives 30 days');
    });

    test("a token of one organization cannot see another's resources", async () => {
      const other = await t.tenant();
      const theirAccount = await addAccount(t, other.organizationId, 'threads');
      const theirPost = await createPost(t, other.key, { content: 'theirs', platforms: [{ accountId: theirAccount.id }] });
      const { tokens } = await connect(t, org);
      const mcp = await httpClient(t, tokens.access_token);
      try {
        assert.equal((await callError(mcp, 'get_post', { id: theirPost.body.post.id })).status, 404);
        assert.equal((await callError(mcp, 'get_account', { id: theirAccount.id })).status, 404);
        assert.equal((await callError(mcp, 'delete_post', { id: theirPost.body.post.id })).status, 404);
        const mine = await callOk<{ accounts: Array<{ id: string }> }>(mcp, 'list_accounts');
        assert.ok(!mine.accounts.some((a) => a.id === theirAccount.id));
      } finally {
        await mcp.close();
      }
      assert.equal((await t.request(`/api/v1/posts/${theirPost.body.post.id}`, { key: other.key })).status, 200);
    });

    test('codes and tokens are stored only as SHA-256', async () => {
      const { tokens, code } = await connect(t, org);
      const db = t.runtime.deps.store.db;
      const rows = await db.selectFrom('mcp_tokens').selectAll().execute();
      const hashes = new Set(rows.map((r) => r.token_hash));
      assert.ok(hashes.has(sha256(tokens.access_token)) && hashes.has(sha256(tokens.refresh_token)));
      assert.ok((await db.selectFrom('mcp_codes').select('code_hash').where('code_hash', '=', sha256(code)).executeTakeFirst()) !== undefined);
      const everything = JSON.stringify([rows, await db.selectFrom('mcp_codes').selectAll().execute(), await db.selectFrom('mcp_grants').selectAll().execute(), await db.selectFrom('mcp_clients').selectAll().execute()]);
      for (const secret of [tokens.access_token, tokens.refresh_token, code]) assert.ok(!everything.includes(secret), 'a secret is stored as it is');
    });

    test("the SDK's own OAuth client provider connects through the whole flow", async () => {
      const browser = await signedIn(t, org);
      let authorization: URL | null = null;
      let client: OAuthClientInformationMixed | undefined;
      let saved: OAuthTokens | undefined;
      let verifier = '';
      const provider: OAuthClientProvider = {
        redirectUrl: REDIRECT,
        clientMetadata: { client_name: 'SDK agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] } satisfies OAuthClientMetadata,
        state: () => 'sdk-state',
        clientInformation: () => client,
        saveClientInformation: (info) => void (client = info),
        tokens: () => saved,
        saveTokens: (tokens) => void (saved = tokens),
        redirectToAuthorization: (url) => void (authorization = url),
        saveCodeVerifier: (v) => void (verifier = v),
        codeVerifier: () => verifier,
      };
      const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { authProvider: provider });
      const first = new Client({ name: 'sdk-oauth', version: '1.0.0' });
      await assert.rejects(first.connect(transport), UnauthorizedError);
      assert.ok(client?.client_id.startsWith('mcpc_'), 'the SDK registered itself');
      const url = authorization as URL | null;
      assert.ok(url, 'the SDK asked to open the authorization URL');
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(url.searchParams.get('resource'), `${t.url}/mcp`);
      // The person's part: the dashboard's consent, approved.
      const back = await decide(browser, url.href, 'approve');
      assert.equal(back.searchParams.get('state'), 'sdk-state');
      await transport.finishAuth(back.searchParams.get('code') ?? '');
      assert.match(saved?.access_token ?? '', /^mcp_at_/);

      const connected = new Client({ name: 'sdk-oauth', version: '1.0.0' });
      await connected.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { authProvider: provider }));
      try {
        const { tools } = await connected.listTools();
        assert.ok(tools.some((tool) => tool.name === 'list_accounts'));
        const result = (await connected.callTool({ name: 'list_accounts', arguments: {} })) as CallToolResult;
        const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
        assert.deepEqual(JSON.parse(text), await (await t.request('/api/v1/accounts', { key })).json());
      } finally {
        await connected.close();
      }
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`MCP OAuth limits [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '6', MCP_REGISTRATIONS_PER_MINUTE: '4' } });
      ({ organizationId: org } = await t.tenant());
    });
    after(async () => t.close());

    test("a connection spends the service's default rate limit as its own budget; registrations are paced per address", async () => {
      const { tokens } = await connect(t, org);
      const mcp = await httpClient(t, tokens.access_token);
      try {
        // Connecting spent three requests (initialize, its notification, the stream the client asks for).
        for (let i = 0; i < 3; i++) await callOk(mcp, 'list_posts');
        const refused = await callError(mcp, 'list_posts');
        assert.equal(refused.status, 429);
      } finally {
        await mcp.close();
      }
      // One registration was made by connect(); three more pass, the next is refused.
      for (let i = 0; i < 3; i++) assert.equal((await register(t, { redirect_uris: [REDIRECT] })).status, 201);
      const paced = await register(t, { redirect_uris: [REDIRECT] });
      assert.equal(paced.status, 429);
      assert.equal(paced.body.error, 'too_many_requests');
      // Preflight for browser-based clients.
      const preflight = await fetch(`${t.url}/oauth/token`, { method: 'OPTIONS', headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    });
  });
}
