// Shared setup of the WhatsApp operation suites: the service in sandbox mode, a number
// connected through POST /whatsapp/connect with a token from the sandbox's Embedded Signup
// dialog, the API and control calls, and the journal of what reached the sandbox.
import assert from 'node:assert/strict';
import { newId } from '../src/lib/ids.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { JournalEntry } from '../src/sandbox/core/journal.ts';
import type { TestApp } from './harness/app.ts';
import { startConnectApp } from './harness/connect.ts';
import type { Dialect } from './harness/databases.ts';
import { openConsent, submitConsent } from './sandbox/helpers.ts';

export type WhatsAppApp = TestApp & { sandbox: SandboxState };

export interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: { message: string; code?: string } };
}

export const json = { 'content-type': 'application/json' };

export async function startWhatsAppApp(dialect: Dialect): Promise<WhatsAppApp> {
  return startConnectApp(dialect);
}

/** A user token with the WhatsApp permissions, from the sandbox's dialog and code exchange. */
export async function whatsappUserToken(t: WhatsAppApp): Promise<string> {
  const redirect = encodeURIComponent('https://elsewhere.example/cb');
  const dialog = `${t.url}/sandbox/www.facebook.com/v24.0/dialog/oauth?client_id=${sandboxApp('meta').clientId}&redirect_uri=${redirect}&config_id=x&response_type=code&state=s`;
  const code = (await submitConsent(await openConsent(dialog))).searchParams.get('code') ?? '';
  const res = await fetch(`${t.url}/sandbox/graph.facebook.com/v24.0/oauth/access_token?client_id=${sandboxApp('meta').clientId}&client_secret=${sandboxApp('meta').clientSecret}&redirect_uri=${redirect}&code=${code}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export const firstWaba = (t: WhatsAppApp) => {
  const waba = [...t.sandbox.whatsapp.wabas.values()][0];
  if (!waba) throw new Error('the sandbox has no WhatsApp Business Account');
  return waba;
};

export const firstPhone = (t: WhatsAppApp) => {
  const phone = t.sandbox.whatsapp.phoneNumbers.get(firstWaba(t).phoneNumberIds[0] ?? '');
  if (!phone) throw new Error('the sandbox has no phone number');
  return phone;
};

export async function api(t: WhatsAppApp, key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await t.request(`/api/v1${path}`, { key, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Answer['body'] };
}

/** Connects the sandbox's number for the key's organization; the account id. */
export async function connectNumber(t: WhatsAppApp, key: string, extra: Record<string, unknown> = {}): Promise<string> {
  const token = await whatsappUserToken(t);
  const res = await api(t, key, 'POST', '/whatsapp/connect', { accessToken: token, wabaId: firstWaba(t).id, phoneNumberId: firstPhone(t).id, ...extra });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return (res.body.account as { id: string }).id;
}

/** A reddit account row of the organization (for the not_supported answers). */
export async function addRedditAccount(t: WhatsAppApp, organizationId: string): Promise<string> {
  const { store, sealer, clock } = t.runtime.deps;
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id,
      organization_id: organizationId,
      platform: 'reddit',
      platform_user_id: `t2_${id.slice(-6)}`,
      username: 'someone',
      display_name: null,
      avatar_url: null,
      external_id: null,
      status: 'active',
      approval_required: 0,
      access_token_enc: sealer.seal('reddit-token'),
      refresh_token_enc: null,
      token_expires_at: null,
      scopes: 'identity submit',
      metadata: '{}',
      connected_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** The requests that reached the simulated platforms after `seq` (control calls left out). */
export function callsSince(t: WhatsAppApp, seq: number): JournalEntry[] {
  return t.sandbox.journal.list({ after: seq }).filter((e) => !e.path.startsWith('/_sandbox'));
}

export const mark = (t: WhatsAppApp): number => t.sandbox.journal.list().at(-1)?.seq ?? 0;

export async function control(t: WhatsAppApp, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.url}/sandbox/_sandbox/${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  const answer = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 200, JSON.stringify(answer));
  return answer;
}

export const codeOf = (res: Answer) => [res.status, res.body.error?.code ?? null];
