// Shared setup of the WhatsApp sandbox tests: a sandbox with a configured Facebook app, a real
// webhook receiver on 127.0.0.1 that checks X-Hub-Signature-256 over the raw bytes, the app's
// whatsapp_business_account subscription, and an Embedded Signup login (dialog with config_id,
// code exchange) that yields a user token with the WhatsApp permissions.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { sandbox } from './helpers.ts';

export const APP = '777000111';
export const SECRET = 'wa-app-secret';
const VERIFY = 'wa-verify';
const REDIRECT = 'https://app.example/callback/whatsapp';

export interface Hook {
  field: string;
  value: Record<string, unknown>;
  wabaId: string;
}

export interface WhatsAppRig {
  sb: RunningSandbox;
  graph: string;
  hooks: Hook[];
  badSignatures: number;
  callback: string;
  control(path: string, body?: unknown, method?: string): Promise<Record<string, unknown>>;
  login(scopes?: string[]): Promise<string>;
  call(path: string, token: string, init?: { method?: string; json?: unknown; form?: FormData }): Promise<Response>;
  settle(ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function whatsappRig(): Promise<WhatsAppRig> {
  const sb = await sandbox({ apps: [{ platform: 'facebook', clientId: APP, clientSecret: SECRET }] });
  const graph = `${sb.url}/graph.facebook.com/v24.0`;
  const hooks: Hook[] = [];
  const rig = { badSignatures: 0 };
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET') return void res.writeHead(200).end(url.searchParams.get('hub.challenge') ?? '');
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
      const given = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        rig.badSignatures++;
        return void res.writeHead(401).end();
      }
      const body = JSON.parse(raw.toString('utf8')) as { object: string; entry: Array<{ id: string; changes: Array<{ field: string; value: Record<string, unknown> }> }> };
      assert.equal(body.object, 'whatsapp_business_account');
      for (const entry of body.entry) for (const change of entry.changes) hooks.push({ ...change, wabaId: entry.id });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const callback = `http://127.0.0.1:${address.port}/hooks`;

  const control = async (path: string, body?: unknown, method = 'POST') => {
    const res = await fetch(`${sb.url}/_sandbox${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) throw new Error(`control ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const subscribed = await fetch(`${graph}/${APP}/subscriptions`, {
    method: 'POST',
    body: new URLSearchParams({
      access_token: `${APP}|${SECRET}`,
      object: 'whatsapp_business_account',
      callback_url: callback,
      verify_token: VERIFY,
      fields: 'messages,message_template_status_update,message_template_quality_update,template_category_update,phone_number_quality_update,account_update',
    }),
  });
  assert.deepEqual(await subscribed.json(), { success: true });

  /** Embedded Signup: the dialog with config_id (or a plain scope list), consent queued, code exchanged. */
  const login = async (scopes?: string[]) => {
    await control('/consent', { platform: 'facebook', decision: 'allow' });
    const ask = scopes ? `scope=${scopes.join(',')}` : 'config_id=es-config-1';
    const dialog = await fetch(`${sb.url}/www.facebook.com/v24.0/dialog/oauth?client_id=${APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s&${ask}&response_type=code`, { redirect: 'manual' });
    const code = new URL(dialog.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const exchanged = await fetch(`${graph}/oauth/access_token?client_id=${APP}&client_secret=${SECRET}&redirect_uri=${encodeURIComponent(REDIRECT)}&code=${encodeURIComponent(code)}`);
    const short = ((await exchanged.json()) as { access_token: string }).access_token;
    // The service keeps the 60-day token (tests move the clock past a short-lived one's hour).
    const long = await fetch(`${graph}/oauth/access_token?grant_type=fb_exchange_token&client_id=${APP}&client_secret=${SECRET}&fb_exchange_token=${short}`);
    return ((await long.json()) as { access_token: string }).access_token;
  };
  const call = (path: string, token: string, init: { method?: string; json?: unknown; form?: FormData } = {}) =>
    fetch(`${graph}${path}`, {
      method: init.method ?? (init.json !== undefined || init.form ? 'POST' : 'GET'),
      headers: { authorization: `Bearer ${token}`, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
  /** Moves the sandbox clock (firing due events) and waits for the webhooks to be delivered. */
  const settle = async (ms = 0) => {
    if (ms) await control('/clock/advance', { ms });
    await control('/idle');
  };
  const close = async () => {
    await sb.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  };
  return {
    sb,
    graph,
    hooks,
    get badSignatures() {
      return rig.badSignatures;
    },
    callback,
    control,
    login,
    call,
    settle,
    close,
  };
}
