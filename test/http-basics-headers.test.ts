// Headers for what the service serves (issue 29, point 8), on both stores: nosniff on every
// answer (JSON, errors, probes, /mcp, the dashboard, a bare-socket refusal), a
// Content-Security-Policy on every HTML page whose inline styles it allows by hash and which runs
// no script it does not name (the WhatsApp signup page, the connect result pages, the OAuth error
// page, the sandbox's consent page), and on the dashboard X-Frame-Options: DENY and form-action
// limited to itself and to where its forms lead (the consent page's client, the platform's sign-in).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { TestApp } from './harness/app.ts';
import { startConnectApp, walkConnect } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { rawRequest } from './harness/raw-http.ts';
import { openConsent } from './sandbox/helpers.ts';
import { signedIn, type DashboardClient } from './dashboard-support.ts';
import { authorizeUrl, pkce, registeredClient, standardParams } from './mcp-oauth-support.ts';

/** The directives of a policy by name. */
function directives(policy: string | null): Map<string, string[]> {
  assert.ok(policy, 'a Content-Security-Policy');
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values]));
}

/** The page's policy allows its inline styles by hash, no script (or only its own), no framing, no <base>. */
function assertPagePolicy(res: Response, html: string, scripts: string[] | undefined = undefined): Map<string, string[]> {
  const policy = directives(res.headers.get('content-security-policy'));
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.deepEqual(policy.get('default-src'), ["'none'"]);
  assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
  assert.deepEqual(policy.get('base-uri'), ["'none'"]);
  assert.deepEqual(policy.get('script-src'), scripts, 'no script runs but its own');
  const styles = policy.get('style-src') ?? [];
  for (const [, style = ''] of html.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
    const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
    assert.ok(styles.includes(hash) || styles.includes("'unsafe-inline'"), `the inline style is allowed: ${styles.join(' ')}`);
  }
  return policy;
}

for (const dialect of DIALECTS) {
  describe(`headers for what the service serves [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    let organizationId: string;

    before(async () => {
      t = await startConnectApp(dialect);
      ({ key, organizationId } = await t.tenant());
    });
    after(() => t.close());

    test('nosniff on every answer: JSON, errors, probes, the API document, /mcp, the dashboard', async () => {
      for (const [path, init, status] of [
        ['/api/v1/accounts', { key }, 200],
        ['/api/v1/accounts', {}, 401],
        ['/api/v1/nothing-here', { key }, 404],
        ['/healthz', {}, 200],
        ['/api/v1/openapi.json', {}, 200],
        ['/mcp', { method: 'POST' }, 401],
        ['/dashboard/signin', {}, 200],
        ['/nowhere', {}, 404],
      ] as const) {
        const res = await t.request(path, init);
        await res.arrayBuffer();
        assert.equal(res.status, status, path);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      }
      // Refused by Node's parser, answered on the bare socket.
      const { responses } = await rawRequest(t.url, `GET /api/v1/accounts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.equal(responses.at(-1)?.status, 431);
      assert.equal(responses.at(-1)?.headers['x-content-type-options'], 'nosniff');
    });

    test('the WhatsApp signup page has a policy (its style by hash, no script, no form) and sends no Referer', async () => {
      const start = await t.request('/api/v1/connect/whatsapp', { key });
      assert.equal(start.status, 200);
      const { authUrl } = (await start.json()) as { authUrl: string };
      const page = await fetch(authUrl);
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.match(html, /Continue with Facebook/);
      const policy = assertPagePolicy(page, html);
      assert.deepEqual(policy.get('form-action'), ["'none'"]);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      const expired = await fetch(`${t.url}/api/v1/connect/whatsapp/signup?state=nothing`);
      const expiredHtml = await expired.text();
      assert.equal(expired.status, 400);
      assertPagePolicy(expired, expiredHtml);
    });

    test('the connect result page, the OAuth error page and the sandbox consent page have a policy', async () => {
      const walk = await walkConnect(t, key, 'reddit');
      const result = await walk.response.text();
      assert.equal(walk.response.status, 200);
      assert.match(result, /Account connected/);
      assertPagePolicy(walk.response, result);

      const oauthError = await fetch(`${t.url}/oauth/authorize?client_id=mcpc_unknown`);
      // A page of the dashboard's look: its own stylesheet and script, nothing else.
      assertPagePolicy(oauthError, await oauthError.text(), ["'self'"]);

      const start = (await (await t.request('/api/v1/connect/reddit', { key })).json()) as { authUrl: string };
      const consent = await fetch(start.authUrl);
      const consentHtml = await consent.text();
      assert.equal(consent.status, 200);
      assertPagePolicy(consent, consentHtml);
      assert.ok(await openConsent(start.authUrl));
    });

    test('the dashboard: X-Frame-Options DENY, form-action to itself, and to where a form leads', async () => {
      const browser: DashboardClient = await signedIn(t, organizationId);
      for (const path of ['/dashboard/approvals', '/dashboard/keys', '/dashboard/signin', '/dashboard/no-such-page']) {
        const res = await browser.open(path);
        assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
        const policy = directives(res.headers.get('content-security-policy'));
        assert.deepEqual(policy.get('form-action'), ["'self'"], path);
        assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], path);
      }
      // The consent page's Approve redirects to the client: its origin is allowed, and only it.
      const clientId = await registeredClient(t);
      const { challenge } = pkce();
      const start = await browser.open(authorizeUrl(t, standardParams(t, clientId, challenge)));
      const consent = await browser.open(start.location ?? '');
      assert.equal(consent.status, 200);
      assert.deepEqual(directives(consent.headers.get('content-security-policy')).get('form-action'), ["'self'", 'http://127.0.0.1:33418']);
      // An account's page: Reconnect leads to the platform's sign-in.
      const walk = await walkConnect(t, key, 'reddit', { redirectUrl: 'https://client.example/connected' });
      const accountId = walk.location?.searchParams.get('accountId') ?? '';
      const account = await browser.open(`/dashboard/accounts/${accountId}`);
      assert.equal(account.status, 200);
      const reconnect = await browser.submit(`/dashboard/accounts/${accountId}/reconnect`);
      assert.equal(reconnect.status, 303);
      const signInOrigin = new URL(reconnect.location ?? '').origin;
      assert.ok(directives(account.headers.get('content-security-policy')).get('form-action')?.includes(signInOrigin), signInOrigin);
    });
  });
}
