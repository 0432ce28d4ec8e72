// Shared setup of the Pages and Instagram tests: a sandbox with a Facebook app and an Instagram
// app, tokens obtained through the real OAuth flows (Facebook Login → long-lived user token →
// Page token from /me/accounts; Instagram Login → long-lived token), a media file server, and
// a webhook receiver on 127.0.0.1 that answers the handshake and checks every signature.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, fileServer, sandbox, samples, type FileServer } from './helpers.ts';

export const FB_APP = '4455667788';
export const FB_SECRET = 'fb-pages-secret';
export const IG_APP = '9988776655';
export const IG_SECRET = 'ig-pages-secret';
const REDIRECT = 'https://app.example/callback';
export const FB_SCOPES = [
  'pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_read_user_content', 'pages_manage_engagement', 'pages_manage_metadata', 'pages_messaging', 'read_insights',
  'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments', 'instagram_manage_messages', 'instagram_manage_insights',
];
export const IG_SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments', 'instagram_business_manage_messages', 'instagram_business_manage_insights'];

export interface MetaWorld {
  sb: RunningSandbox;
  files: FileServer;
  fb: string;
  ig: string;
  userToken: string;
  pageToken: string;
  pageId: string;
  igUserId: string;
  close(): Promise<void>;
}

export async function facebookLogin(sb: RunningSandbox, scopes = FB_SCOPES, untick: string[] = []): Promise<{ userToken: string; pages: Array<{ id: string; access_token: string; instagram_business_account?: { id: string } }> }> {
  const location = await consent(`${sb.url}/www.facebook.com/v24.0/dialog/oauth?client_id=${FB_APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s&scope=${scopes.join(',')}&response_type=code`, { untick });
  const fb = `${sb.url}/graph.facebook.com/v24.0`;
  const short = (await (await fetch(`${fb}/oauth/access_token?client_id=${FB_APP}&client_secret=${FB_SECRET}&redirect_uri=${encodeURIComponent(REDIRECT)}&code=${location.searchParams.get('code') ?? ''}`)).json()) as { access_token: string };
  const long = (await (await fetch(`${fb}/oauth/access_token?grant_type=fb_exchange_token&client_id=${FB_APP}&client_secret=${FB_SECRET}&fb_exchange_token=${short.access_token}`)).json()) as { access_token: string };
  const accounts = (await (await fetch(`${fb}/me/accounts?fields=id,name,access_token,instagram_business_account&access_token=${long.access_token}`)).json()) as {
    data: Array<{ id: string; access_token: string; instagram_business_account?: { id: string } }>;
  };
  return { userToken: long.access_token, pages: accounts.data };
}

export async function instagramLogin(sb: RunningSandbox, scopes = IG_SCOPES): Promise<{ token: string; userId: string }> {
  const location = await consent(`${sb.url}/www.instagram.com/oauth/authorize?client_id=${IG_APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=${scopes.join(',')}&state=s`);
  const res = await fetch(`${sb.url}/api.instagram.com/oauth/access_token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: IG_APP, client_secret: IG_SECRET, grant_type: 'authorization_code', redirect_uri: REDIRECT, code: location.searchParams.get('code') ?? '' }),
  });
  const text = await res.text();
  const userId = /"user_id":(\d+)/.exec(text)?.[1] ?? '';
  const short = JSON.parse(text) as { access_token: string };
  const long = (await (await fetch(`${sb.url}/graph.instagram.com/access_token?grant_type=ig_exchange_token&client_secret=${IG_SECRET}&access_token=${short.access_token}`)).json()) as { access_token: string };
  return { token: long.access_token, userId };
}

export async function metaWorld(): Promise<MetaWorld> {
  const sb = await sandbox({
    apps: [
      { platform: 'facebook', clientId: FB_APP, clientSecret: FB_SECRET },
      { platform: 'instagram', clientId: IG_APP, clientSecret: IG_SECRET },
    ],
  });
  const files = await fileServer({
    '/a.jpg': { body: samples.jpeg },
    '/b.png': { body: samples.png },
    '/c.mp4': { body: samples.mp4 },
    '/d.gif': { body: samples.gif },
    '/page.html': { body: samples.html, type: 'image/jpeg' },
  });
  const { userToken, pages } = await facebookLogin(sb);
  const page = pages.find((p) => p.instagram_business_account);
  assert.ok(page?.instagram_business_account, 'the seeded Page has a linked Instagram account');
  return {
    sb,
    files,
    fb: `${sb.url}/graph.facebook.com/v24.0`,
    ig: `${sb.url}/graph.instagram.com/v24.0`,
    userToken,
    pageToken: page.access_token,
    pageId: page.id,
    igUserId: page.instagram_business_account.id,
    close: async () => {
      await sb.close();
      await files.close();
    },
  };
}

/** POST with form parameters; answers status and parsed body. */
export async function form(url: string, params: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> & { error?: { code: number; error_subcode?: number; message: string } } }> {
  const res = await fetch(url, { method: 'POST', body: new URLSearchParams(params) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> & { error?: { code: number; error_subcode?: number; message: string } } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function getJson<T = Record<string, unknown>>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

export interface Receiver {
  url: string;
  /** Parsed bodies of the signed notifications received, in order. */
  events: Array<{ object: string; entry: Array<Record<string, unknown>> }>;
  close(): Promise<void>;
}

/** A webhook receiver: answers the handshake, rejects (and fails the test on) a bad signature. */
export async function receiver(secret: string, verifyToken = 'verify-me'): Promise<Receiver> {
  const events: Receiver['events'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET') {
        const ok = url.searchParams.get('hub.verify_token') === verifyToken;
        return void res.writeHead(ok ? 200 : 403).end(ok ? (url.searchParams.get('hub.challenge') ?? '') : '');
      }
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      const given = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
      assert.ok(given.length === expected.length && timingSafeEqual(given, expected), 'X-Hub-Signature-256 verifies over the raw body');
      events.push(JSON.parse(raw.toString()) as Receiver['events'][number]);
      res.writeHead(200).end('EVENT_RECEIVED');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    events,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Subscribes an app to an object's fields (app token) through /{app-id}/subscriptions. */
export async function subscribeApp(world: MetaWorld, appId: string, secret: string, object: string, fields: string[], callback: string): Promise<void> {
  const res = await form(`${world.fb}/${appId}/subscriptions`, { access_token: `${appId}|${secret}`, object, callback_url: callback, fields: fields.join(','), verify_token: 'verify-me' });
  assert.deepEqual(res.body, { success: true });
}

export async function control(world: MetaWorld, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await postJson(`${world.sb.url}/_sandbox/${path}`, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
