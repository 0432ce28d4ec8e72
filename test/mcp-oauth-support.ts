// The MCP authorization flow as a remote client walks it, over real HTTP: registration, the
// authorize URL with PKCE, sign-in and consent in the dashboard (a DashboardClient keeps the
// session cookie and the form's CSRF token), and the code exchanged at the token endpoint.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from './harness/app.ts';
import { signedIn, type DashboardClient, type Page } from './dashboard-support.ts';
import type { PostsApp } from './posts-support.ts';

export const REDIRECT = 'http://127.0.0.1:33418/callback';

export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

export interface OAuthAnswer<T = Record<string, unknown>> {
  status: number;
  body: T & { error?: string; error_description?: string };
  headers: Headers;
}

async function answer<T>(res: Response): Promise<OAuthAnswer<T>> {
  return { status: res.status, body: (await res.json()) as OAuthAnswer<T>['body'], headers: res.headers };
}

export async function register(t: Pick<TestApp, 'url'>, metadata: unknown): Promise<OAuthAnswer<{ client_id: string; redirect_uris: string[]; token_endpoint_auth_method: string; client_name?: string }>> {
  return answer(await fetch(`${t.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) }));
}

export async function registeredClient(t: Pick<TestApp, 'url'>, name = 'Test agent', redirect = REDIRECT): Promise<string> {
  const res = await register(t, { client_name: name, redirect_uris: [redirect], token_endpoint_auth_method: 'none' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.client_id;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(t: Pick<TestApp, 'url'>, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `${t.url}/oauth/authorize?${query.toString()}`;
}

export function standardParams(t: Pick<TestApp, 'url'>, clientId: string, challenge: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st-1', resource: `${t.url}/mcp`, ...extra };
}

/** The hidden fields of the consent form, as a browser would post them back. */
export function consentFields(page: Page): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    const [, name, value] = match;
    if (name && name !== '_csrf') fields[name] = (value ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  }
  return fields;
}

/** Opens an authorize URL with a dashboard session, presses the button, and returns where the browser is sent. */
export async function decide(browser: DashboardClient, url: string, decision: 'approve' | 'deny'): Promise<URL> {
  const start = await browser.open(url);
  assert.equal(start.status, 302, start.text);
  const consent = await browser.open(start.location ?? '');
  assert.equal(consent.status, 200, consent.text);
  const done = await browser.submit('/dashboard/authorize', { ...consentFields(consent), decision });
  assert.equal(done.status, 303, done.text);
  return new URL(done.location ?? '');
}

export async function token(t: Pick<TestApp, 'url'>, fields: Record<string, string>): Promise<OAuthAnswer<Tokens>> {
  return answer(await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }));
}

export async function revoke(t: Pick<TestApp, 'url'>, fields: Record<string, string>): Promise<number> {
  const res = await fetch(`${t.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  await res.body?.cancel();
  return res.status;
}

/** A whole connection for an organization: registered, approved in the dashboard, exchanged. */
export async function connect(t: PostsApp, organizationId: string, name = 'Test agent'): Promise<{ clientId: string; tokens: Tokens; code: string }> {
  const clientId = await registeredClient(t, name);
  const { verifier, challenge } = pkce();
  const browser = await signedIn(t, organizationId);
  const back = await decide(browser, authorizeUrl(t, standardParams(t, clientId, challenge)), 'approve');
  const code = back.searchParams.get('code') ?? '';
  const exchanged = await token(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
  assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
  return { clientId, tokens: exchanged.body, code };
}

/** The status /mcp answers an initialize with this bearer. */
export async function mcpStatus(t: Pick<TestApp, 'url'>, bearer: string): Promise<{ status: number; challenge: string | null }> {
  const res = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });
  await res.body?.cancel();
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}
