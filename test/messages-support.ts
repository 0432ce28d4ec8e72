// Shared by the direct-message suites: the service in sandbox mode with a clock tests move
// together with the sandbox's (the messaging windows are hours and days), Meta accounts with the
// messaging permissions (each a new sandbox Facebook user with its Page and linked Instagram
// account, as the connect flows would store them), a signed receiver of the message events, and
// the sandbox's control calls that make a person write, read, react or press a button.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { insertAccount } from './harness/sandbox-accounts.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import { newId } from '../src/lib/ids.ts';
import type { Clock } from '../src/lib/clock.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import type { Dialect } from './harness/databases.ts';
import { json, startPostsApp, type PostsApp } from './posts-support.ts';

/** Real time plus an offset, moved forward with the sandbox's clock. */
export class OffsetClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

export type MessagesApp = PostsApp & { clock: OffsetClock };

export async function startMessagesApp(dialect: Dialect): Promise<MessagesApp> {
  const clock = new OffsetClock();
  const t = await startPostsApp(dialect, { clock });
  t.sandbox.configureApp({ platform: 'facebook', clientId: sandboxApp('meta').clientId, clientSecret: sandboxApp('meta').clientSecret });
  t.sandbox.configureApp({ platform: 'instagram', clientId: sandboxApp('instagram').clientId, clientSecret: sandboxApp('instagram').clientSecret });
  return Object.assign(t, { clock });
}

/** Both clocks, the service's and the platforms', move on by `ms`. */
export function advanceBoth(t: MessagesApp, ms: number): void {
  t.clock.offset += ms;
  t.sandbox.clock.advance(ms);
}

const FB_SCOPES = ['pages_show_list', 'pages_manage_metadata', 'pages_read_engagement', 'pages_messaging', 'instagram_basic', 'instagram_manage_messages'];
const IG_SCOPES = ['instagram_business_basic', 'instagram_business_manage_messages'];

export type Kind = 'facebook' | 'instagram-facebook' | 'instagram-instagram';

export interface DmAccount {
  id: string;
  kind: Kind;
  platform: 'facebook' | 'instagram';
  token: string;
  /** The Page id (facebook) or the Instagram account id. */
  platformUserId: string;
  pageId: string;
}

export async function addDmAccount(t: PostsApp, organizationId: string, kind: Kind, options: { scopes?: string[]; approval?: boolean; status?: 'active' | 'needs_reconnect' } = {}): Promise<DmAccount> {
  const { user, pages, instagram } = t.sandbox.addFacebookUser({ pages: [{ instagram: {} }] });
  const page = pages[0];
  const ig = instagram[0];
  if (!page || !ig) throw new Error('the sandbox made no Page');
  const platform = kind === 'facebook' ? 'facebook' : 'instagram';
  const igLogin = kind === 'instagram-instagram';
  const scopes = options.scopes ?? (igLogin ? IG_SCOPES : FB_SCOPES);
  const token = `${kind}-dm-token-${newId('account').slice(4)}`;
  const common = { value: token, clientId: igLogin ? sandboxApp('instagram').clientId : sandboxApp('meta').clientId, declined: [], ttlSeconds: null, longLived: true, scopes };
  if (igLogin) t.sandbox.issueToken({ ...common, platform: 'instagram', type: 'user', subjectId: ig.id, userId: ig.id, pageIds: [] });
  else t.sandbox.issueToken({ ...common, platform: 'facebook', type: 'page', subjectId: page.id, userId: user.id, pageIds: [page.id] });
  const { sealer, store, clock } = t.runtime.deps;
  const platformUserId = platform === 'facebook' ? page.id : ig.id;
  const metadata = kind === 'facebook' ? { login: 'facebook', category: page.category, tasks: page.tasks } : kind === 'instagram-facebook' ? { login: 'facebook', pageId: page.id } : { login: 'instagram' };
  const id = await insertAccount(store.db, sealer, {
    organizationId,
    platform,
    platformUserId,
    username: platform === 'facebook' ? null : ig.username,
    displayName: platform === 'facebook' ? page.name : ig.name,
    externalId: `ext-${kind}`,
    status: options.status ?? 'active',
    approvalRequired: options.approval ?? false,
    token,
    scopes,
    metadata,
    now: clock.now(),
  });
  return { id, kind, platform, token, platformUserId, pageId: page.id };
}

export const MESSAGE_EVENTS = ['message.received', 'message.sent', 'message.read', 'message.delivered', 'message.reaction'];

export interface Delivered {
  id: string;
  event: string;
  createdAt: string;
  data: MessageData;
}

export interface MessageData {
  eventId: string | null;
  platform: string;
  accountId: string;
  externalId: string | null;
  conversationId: string;
  messageId: string | null;
  platformMessageId: string | null;
  platformMessageIds: string[];
  direction: string;
  participant: { id: string; username: string | null; name: string | null };
  text: string | null;
  attachments: Array<{ type: string; url: string | null }>;
  postback: Record<string, unknown> | null;
  reaction: { action: string; emoji: string | null } | null;
  watermark: number | string | null;
  sentAt: string | null;
  receivedAt: string;
}

/** A receiver subscribed to the message events, whose deliveries are checked against their signature. */
export async function messageReceiver(t: PostsApp, key: string): Promise<{ receiver: Receiver; delivered: () => Delivered[] }> {
  const receiver = await new Receiver().start();
  const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events: MESSAGE_EVENTS }) });
  assert.equal(hook.status, 201, await hook.clone().text());
  const secret = ((await hook.json()) as { webhook: { secret: string } }).webhook.secret;
  const delivered = () =>
    receiver.received.map((r) => {
      const timestamp = String(r.headers['x-socialapi-timestamp']);
      assert.equal(r.headers['x-socialapi-signature'], createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex'));
      return JSON.parse(r.body) as Delivered;
    });
  return { receiver, delivered };
}

export async function control(t: PostsApp, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.url}/sandbox/_sandbox/meta/${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Record<string, unknown>;
}

export async function subscribe(t: PostsApp, key: string, account: DmAccount): Promise<void> {
  const sub = await t.request(`/api/v1/accounts/${account.id}/webhook-subscription`, { key, method: 'POST' });
  assert.equal(sub.status, 200, await sub.text());
}

/** Waits until every stored Meta webhook left `pending` (processed or unhandled). */
export function settledInbound(t: PostsApp): Promise<true> {
  return waitFor(async () => ((await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select('id').where('status', '=', 'pending').execute()).length === 0 ? true : null), 10_000, 'the process jobs');
}

export const metaSign = (body: string) => `sha256=${createHmac('sha256', sandboxApp('meta').clientSecret).update(body).digest('hex')}`;

export function postMeta(t: PostsApp, body: string): Promise<Response> {
  return fetch(`${t.url}/api/v1/platform-webhooks/meta`, { method: 'POST', headers: { ...json, 'x-hub-signature-256': metaSign(body) }, body });
}

/** The sandbox requests since `seq`, control calls left out. */
export function platformCalls(t: PostsApp, seq: number) {
  return t.sandbox.journal.list({ after: seq }).filter((e) => !e.path.startsWith('/_sandbox'));
}

export const journalMark = (t: PostsApp): number => t.sandbox.journal.list().at(-1)?.seq ?? 0;

export async function api<T = Record<string, unknown>>(t: PostsApp, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await t.request(`/api/v1${path}`, { key, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}
