// Nothing secret in any log line (issue 29, point 7). The service runs at LOG_LEVEL=debug, its
// server and worker lines collected from standard output, while each flow that handles a secret
// runs as a client would: an API key used (and an unknown one refused), the dashboard's sign-in
// link, session cookie, CSRF token and a key created there, the OAuth connect of platform
// accounts through the sandbox (code, state, the tokens the platform issued, the app secrets),
// the MCP authorization flow (PKCE verifier, code, access and refresh tokens, a refused code),
// a webhook endpoint's secret, and a WhatsApp number registered with its PIN and a user token.
// Then the whole log is searched for every one of those values.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Writable } from 'node:stream';
import { createLogger } from '../src/http/logging.ts';
import { SANDBOX_VERIFY_TOKEN } from '../src/platforms/context.ts';
import { APPS } from '../src/platforms/registry.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { walkConnect } from './harness/connect.ts';
import { signInLink, DashboardClient, json } from './dashboard-support.ts';
import { authorizeUrl, decide, pkce, REDIRECT, registeredClient, revoke, standardParams, token } from './mcp-oauth-support.ts';
import { startPostsApp, type PostsApp } from './posts-support.ts';
import { connectNumber, firstPhone, whatsappUserToken } from './whatsapp-support.ts';
import { newBlueskyPerson, startConnect as startBlueskyConnect, submitPage } from './bluesky-support.ts';

/** Everything the process writes to standard output while `run` runs (the service's JSON lines). */
async function captureStdout(run: () => Promise<void>): Promise<string> {
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    // The service's lines are kept; anything else (the test runner's own reports) goes on.
    if (!text.startsWith('{"level"')) return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    out += text;
    return true;
  });
  try {
    await run();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

/** Where `secret` appears in `log` (a digit-only secret only as a whole number, not inside a timestamp). */
function leaks(log: string, secret: string): string[] {
  const pattern = /^\d+$/.test(secret) ? new RegExp(`(?<!\\d)${secret}(?!\\d)`) : null;
  const forms = [secret, encodeURIComponent(secret)];
  return log.split('\n').filter((line) => (pattern ? pattern.test(line) : forms.some((form) => line.includes(form))));
}

for (const dialect of DIALECTS) {
  describe(`no secret in the log [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let log = '';
    const secrets = new Map<string, string>();
    const keep = (what: string, value: string | null | undefined) => {
      assert.ok(value, `the flow gave no ${what}`);
      secrets.set(what, value);
    };

    before(async () => {
      t = await startPostsApp(dialect, { env: { LOG_LEVEL: 'debug' } });
    });
    after(async () => t.close());

    test('every flow at LOG_LEVEL=debug: none of the secrets it used is in the log', async () => {
      const { key, organizationId } = await t.tenant();
      log = await captureStdout(async () => {
        // API keys: used, and an unknown one refused (in the header, and wrongly in the query).
        keep('API key', key);
        assert.equal((await t.request('/api/v1/posts', { key })).status, 200);
        const unknown = `sk_${randomBytes(32).toString('base64url').replace(/[-_]/g, 'x').slice(0, 43)}`;
        keep('unknown API key', unknown);
        assert.equal((await t.request('/api/v1/posts', { key: unknown })).status, 401);
        assert.equal((await t.request(`/api/v1/posts?api_key=${unknown}&apiKey=${unknown}`)).status, 401);

        // The dashboard: the sign-in link's token (in its path), the session cookie, the CSRF token
        // and a key created there (shown once on the page).
        const link = await signInLink(t, organizationId);
        keep('sign-in token', link.split('/').pop());
        const browser = new DashboardClient(t.url);
        assert.equal((await browser.open(link)).status, 303);
        keep('session cookie', browser.cookie?.split('=').slice(1).join('='));
        assert.equal((await browser.open('/dashboard/keys')).status, 200);
        keep('CSRF token', browser.csrf);
        const created = await browser.submit('/dashboard/keys', { name: 'from the dashboard' });
        assert.equal(created.status, 201);
        keep('key created in the dashboard', /sk_[0-9A-Za-z]{43}/.exec(created.text)?.[0]);
        // A used link again: refused, and its token still not logged.
        assert.equal((await new DashboardClient(t.url).open(link)).status, 410);

        // OAuth connect of platform accounts through the sandbox: the code and state of each
        // callback, the tokens the platform issued (read back from the store), the app secrets.
        for (const [platform, query] of [['reddit', {}], ['threads', {}], ['tiktok', {}], ['instagram', { login: 'facebook' }]] as const) {
          const walk = await walkConnect(t, key, platform, { redirectUrl: 'https://client.example/connected', ...query });
          assert.equal(walk.response.status, 302, await walk.response.clone().text());
          keep(`${platform} OAuth code`, walk.callbackUrl.searchParams.get('code'));
          keep(`${platform} OAuth state`, walk.callbackUrl.searchParams.get('state'));
          const accountId = walk.location?.searchParams.get('accountId')?.split(',')[0] ?? '';
          const row = await t.runtime.deps.store.db.selectFrom('accounts').select(['access_token_enc', 'refresh_token_enc']).where('id', '=', accountId).executeTakeFirstOrThrow();
          keep(`${platform} access token`, row.access_token_enc ? t.runtime.deps.sealer.open(row.access_token_enc) : null);
          if (row.refresh_token_enc) keep(`${platform} refresh token`, t.runtime.deps.sealer.open(row.refresh_token_enc));
          // The account in use: a platform call with its token.
          assert.equal((await t.request(`/api/v1/accounts/${accountId}/health`, { key })).status, 200);
        }
        for (const app of APPS) keep(`${app.name} app secret`, app.sandbox.clientSecret);
        keep('webhook verify token', SANDBOX_VERIFY_TOKEN);
        // A callback with a code the platform never issued: refused, the code not logged.
        const forged = `forged-${randomBytes(12).toString('hex')}`;
        keep('forged OAuth code', forged);
        await (await fetch(`${t.url}/api/v1/connect/reddit/callback?code=${forged}&state=${forged}`, { redirect: 'manual' })).text();

        // MCP OAuth: registration, consent, the code exchanged with the PKCE verifier, a refresh,
        // the access token used at /mcp, a revocation, and a replayed code.
        const clientId = await registeredClient(t);
        const { verifier, challenge } = pkce();
        keep('PKCE verifier', verifier);
        const signedIn = new DashboardClient(t.url);
        assert.equal((await signedIn.open(await signInLink(t, organizationId))).status, 303);
        const back = await decide(signedIn, authorizeUrl(t, standardParams(t, clientId, challenge)), 'approve');
        const code = back.searchParams.get('code');
        keep('MCP authorization code', code);
        const exchanged = await token(t, { grant_type: 'authorization_code', code: code ?? '', redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
        assert.equal(exchanged.status, 200);
        keep('MCP access token', exchanged.body.access_token);
        keep('MCP refresh token', exchanged.body.refresh_token);
        const refreshed = await token(t, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: clientId });
        assert.equal(refreshed.status, 200);
        keep('MCP refreshed access token', refreshed.body.access_token);
        keep('MCP rotated refresh token', refreshed.body.refresh_token);
        const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
        const mcp = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${refreshed.body.access_token}` }, body: JSON.stringify(initialize) });
        assert.equal(mcp.status, 200);
        await mcp.text();
        const replayed = await token(t, { grant_type: 'authorization_code', code: code ?? '', redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
        assert.equal(replayed.status, 400);
        assert.equal(await revoke(t, { token: refreshed.body.refresh_token, client_id: clientId }), 200);

        // Bluesky's sign-in page: a wrong app password, then the right one; the session tokens it yields.
        const person = newBlueskyPerson(t.sandbox);
        keep('Bluesky app password', person.appPassword);
        keep('Bluesky main password', person.mainPassword);
        const { pageUrl, state } = await startBlueskyConnect(t, key);
        keep('Bluesky page state', state);
        assert.equal((await submitPage(pageUrl, state, person.handle, person.mainPassword)).response.status, 400);
        const signedInBluesky = await submitPage(pageUrl, state, person.handle, person.appPassword);
        const blueskyId = signedInBluesky.location?.searchParams.get('accountId') ?? '';
        assert.ok(blueskyId, signedInBluesky.html);
        const session = await t.runtime.deps.store.db.selectFrom('accounts').select(['access_token_enc', 'refresh_token_enc']).where('id', '=', blueskyId).executeTakeFirstOrThrow();
        keep('Bluesky access JWT', session.access_token_enc ? t.runtime.deps.sealer.open(session.access_token_enc) : null);
        keep('Bluesky refresh JWT', session.refresh_token_enc ? t.runtime.deps.sealer.open(session.refresh_token_enc) : null);
        assert.equal((await t.request(`/api/v1/accounts/${blueskyId}/health`, { key })).status, 200);

        // A webhook endpoint: its secret, answered once.
        const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['post.published'] }) });
        assert.equal(hook.status, 201);
        keep('webhook secret', ((await hook.json()) as { secret?: string; webhook?: { secret?: string } }).webhook?.secret ?? null);

        // WhatsApp: a number connected with the user's token and registered with its PIN, then
        // registered again with another PIN through its own operation.
        const userToken = await whatsappUserToken(t);
        keep('WhatsApp user token', userToken);
        keep('WhatsApp PIN', '907153');
        const accountId = await connectNumber(t, key, { register: true, pin: '907153' });
        keep('WhatsApp second PIN', '531709');
        const registered = await t.request(`/api/v1/whatsapp/accounts/${accountId}/register`, { key, method: 'POST', headers: json, body: JSON.stringify({ pin: '531709' }) });
        assert.ok(registered.status < 500, String(registered.status));
        await registered.text();
        assert.ok(firstPhone(t).id);
        // Let the worker's lines of these flows (webhooks, jobs) reach the log.
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      assert.ok(log.split('\n').length > 50, 'the service logged at debug level');
      assert.ok(log.includes('redacted'), 'secrets were met and masked');
      const found = [...secrets].flatMap(([what, value]) => leaks(log, value).map((line) => `${what}: ${line.slice(0, 400)}`));
      assert.deepEqual(found, []);
    });
  });
}

describe('the logger masks secrets in what it is given', () => {
  test('an error message or stack with a platform URL, credentials in headers and text, credential fields at any depth', () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger('debug', out);
    const platformToken = `EAAG${randomBytes(24).toString('hex')}`;
    const key = `sk_${'A1b2C3d4E5'.repeat(4)}xyz`;
    const webhookSecret = `whsec_${randomBytes(32).toString('base64url')}`;
    const error = new Error(`GET https://graph.facebook.com/v24.0/me?fields=id&access_token=${platformToken} failed; sent Authorization: Bearer ${key}`);
    log.error({ err: error }, 'platform call failed');
    log.warn({ account: { credentials: { accessToken: platformToken, refresh_token: platformToken } }, body: { pin: '123456', nested: { client_secret: 'app-secret-1', code_verifier: 'verifier-value-1' } } }, 'a call');
    log.info(`created endpoint with ${webhookSecret}; login at /dashboard/login/dl_${'x'.repeat(43)}`);
    log.info({ req: { method: 'GET', url: `/dashboard/login/dl_${'y'.repeat(43)}?code=abc&redirect=1` } }, 'incoming request');
    const text = lines.join('');
    for (const secret of [platformToken, key, webhookSecret, '123456', 'app-secret-1', 'verifier-value-1', 'x'.repeat(43), 'y'.repeat(43), 'code=abc']) {
      assert.ok(!text.includes(secret), `${secret} is in the log:\n${text}`);
    }
    // What is not secret stays readable.
    assert.match(text, /graph\.facebook\.com\/v24\.0\/me\?fields=id&access_token=\[redacted\]/);
    assert.match(text, /redirect=1/);
    assert.match(text, /platform call failed/);
  });
});
