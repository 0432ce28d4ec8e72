// Bluesky accounts for the suites: a new sandbox account per test (its own handle and app
// password), connected the way a person does it — GET /connect/bluesky, the service's page, its
// form posted with the handle and the app password — so every suite goes through the real
// connect flow (handle → DID → PDS → createSession).
import assert from 'node:assert/strict';
import { newId } from '../src/lib/ids.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';

export const REDIRECT = 'https://client.example/connected';

export interface SandboxBlueskyAccount {
  did: string;
  handle: string;
  appPassword: string;
  mainPassword: string;
}

/** A fresh sandbox account (app password and main password known). */
export function newBlueskyPerson(sandbox: SandboxState, options: { emailAuthFactor?: boolean; emailConfirmed?: boolean } = {}): SandboxBlueskyAccount {
  const tag = newId('account').slice(-8).toLowerCase().replace(/[^a-z0-9]/g, 'x');
  const handle = `baker${tag}.bsky.social`;
  const appPassword = `${tag.slice(0, 4)}-${tag.slice(4, 8)}-app0-pass`;
  const account = sandbox.addBlueskyAccount({ handle, appPassword, password: `main-${tag}`, ...options });
  return { did: account.did, handle: account.handle, appPassword, mainPassword: `main-${tag}` };
}

/** GET /connect/bluesky: the page's URL and its state. */
export async function startConnect(t: TestApp, key: string, query: Record<string, string> = { redirectUrl: REDIRECT }): Promise<{ pageUrl: URL; state: string }> {
  const res = await t.request(`/api/v1/connect/bluesky?${new URLSearchParams(query).toString()}`, { key });
  assert.equal(res.status, 200, await res.clone().text());
  const pageUrl = new URL(((await res.json()) as { authUrl: string }).authUrl);
  return { pageUrl, state: pageUrl.searchParams.get('state') ?? '' };
}

/** The page's form posted as a browser does (no redirect followed). */
export async function submitPage(pageUrl: URL, state: string, identifier: string, password: string): Promise<{ response: Response; location: URL | null; html: string }> {
  const response = await fetch(new URL(pageUrl.pathname, pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ state, identifier, password }).toString(),
    redirect: 'manual',
  });
  const location = response.headers.get('location');
  return { response, location: location ? new URL(location) : null, html: response.status === 200 || response.status === 400 ? await response.text() : '' };
}

/** Connects the person's account through the page; the account's id. */
export async function connectBluesky(t: TestApp, key: string, person: SandboxBlueskyAccount): Promise<string> {
  const { pageUrl, state } = await startConnect(t, key);
  const { location, html, response } = await submitPage(pageUrl, state, person.handle, person.appPassword);
  const id = location?.searchParams.get('accountId');
  assert.ok(id, `no account: ${response.status} ${location?.toString() ?? html}`);
  return id;
}

/** A call to the sandbox's control API (`/_sandbox/bluesky/…`); its JSON answer. */
export async function control(t: TestApp, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.url}/sandbox/_sandbox/bluesky/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return (await res.json()) as Record<string, unknown>;
}
