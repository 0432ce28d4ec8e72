// Shared by the dashboard suites: a small browser-less client that keeps the session cookie and
// reads the CSRF token from the last page, sign-in links issued straight from the store, and a
// held post with a real reddit account of the sandbox.
import assert from 'node:assert/strict';
import { createSignInLink } from '../src/modules/dashboard/index.ts';
import type { PostsApp } from './posts-support.ts';
import { addAccount, createPost, type ApiPost } from './posts-support.ts';

export interface Page {
  status: number;
  text: string;
  location: string | null;
  headers: Headers;
}

export class DashboardClient {
  cookie: string | null = null;
  csrf: string | null = null;
  readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  async open(path: string): Promise<Page> {
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, { redirect: 'manual', headers: this.cookie ? { cookie: this.cookie } : {} });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0] ?? null;
    return this.#read(res);
  }

  /** Posts a form; the session's CSRF token is added unless `csrf` says otherwise. */
  async submit(path: string, fields: Record<string, string | string[]> = {}, csrf: string | null | undefined = undefined): Promise<Page> {
    const body = new URLSearchParams();
    const token = csrf === undefined ? this.csrf : csrf;
    if (token !== null) body.append('_csrf', token);
    for (const [k, v] of Object.entries(fields)) for (const value of Array.isArray(v) ? v : [v]) body.append(k, value);
    const res = await fetch(`${this.base}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie ? { cookie: this.cookie } : {}) }, body });
    return this.#read(res);
  }

  async #read(res: Response): Promise<Page> {
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, text, location: res.headers.get('location'), headers: res.headers };
  }
}

export async function signInLink(t: PostsApp, organizationId: string, email: string | null = 'reviewer@example.com', now = t.runtime.deps.clock.now()): Promise<string> {
  const { token } = await createSignInLink(t.runtime.deps.store.db, now, organizationId, email);
  return `${t.url}/dashboard/login/${token}`;
}

export async function signedIn(t: PostsApp, organizationId: string, email: string | null = 'reviewer@example.com'): Promise<DashboardClient> {
  const client = new DashboardClient(t.url);
  const res = await client.open(await signInLink(t, organizationId, email));
  assert.equal(res.status, 303);
  await client.open('/dashboard/approvals');
  return client;
}

/** A post held for approval: a live post by an approval key, to a new reddit account. */
export async function heldPost(t: PostsApp, key: string, organizationId: string, content: string, extra: Record<string, unknown> = {}): Promise<ApiPost> {
  const account = await addAccount(t, organizationId, 'reddit');
  const created = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox', title: 'A title' } }], ...extra });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.post.status, 'pending_approval');
  return created.body.post;
}

export const json = { 'content-type': 'application/json' };
