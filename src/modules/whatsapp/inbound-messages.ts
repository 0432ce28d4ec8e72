// The WhatsApp `messages` webhook field (platforms.md §7.7), read by platform_event.process:
// `messages[]` (a person writing) become stored WhatsApp conversations and messages with
// message.received (a reaction: message.reaction on the message it names), and `statuses[]`
// move the stored message's status (forward only; `failed` keeps the Cloud API's reason) with
// message.status. For every organization's account of the number (`metadata.phone_number_id`),
// in the job's transaction. Once per platform event: the inbox row of kind `message`, unique per
// (account, kind, dedupe key) — the wamid for a message, wamid and status for a status — decides.
import type { Kysely } from 'kysely';
import type { AccountRow, ConversationRow, Database, MessageRow } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { prepare } from '../../db/prepared.ts';
import { newId } from '../../lib/ids.ts';
import type { EventData } from '../events/catalog.ts';
import { emitEvent, type EmitContext } from '../events/emit.ts';
import { emitMessageEvent, messageEventData, recordInboxMessage, type MessageFacts } from '../conversations/events.ts';
import { accountsByPlatformId, conversationOf, messageByPlatformId } from '../conversations/queries.ts';
import { conversationFor, insertMessage, touchConversation, type Attachment } from '../conversations/records.ts';

import { readEnvelope, type Json } from '../platform-webhooks/envelope.ts';
import { inboundHandler } from '../platform-webhooks/inbound-handler.ts';

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const seconds = (v: unknown): number | null => {
  const s = str(v);
  return s !== null && /^\d{1,12}$/.test(s) ? Number(s) * 1000 : null;
};

export const WHATSAPP_MESSAGES_KIND = 'whatsapp_business_account.messages';

const MEDIA = ['image', 'video', 'audio', 'document', 'sticker'];
const STATUSES = ['sent', 'delivered', 'read', 'failed', 'deleted'] as const;
type WhatsAppStatus = (typeof STATUSES)[number];
/** Stored statuses only move forward; failed is final. */
const RANK: Record<MessageRow['status'], number> = { sent: 1, delivered: 2, read: 3, failed: 4 };
const below = (status: MessageRow['status']) => (Object.keys(RANK) as Array<MessageRow['status']>).filter((s) => RANK[s] < RANK[status]);

// Compiled once per status (db/prepared.ts). `sent` is the lowest status: it moves nothing.
const advance = (status: 'delivered' | 'read') => prepare((db, messageId: string) => db.updateTable('messages').set({ status }).where('id', '=', messageId).where('status', 'in', below(status)));
const advanceTo = { delivered: advance('delivered'), read: advance('read') };
const markFailed = prepare((db, messageId: string, error: string) => db.updateTable('messages').set({ status: 'failed', error }).where('id', '=', messageId).where('status', 'in', below('failed')));

export interface InboundWhatsAppMessage {
  kind: 'message';
  phoneNumberId: string;
  waId: string;
  name: string | null;
  mid: string;
  at: number;
  text: string | null;
  attachments: Attachment[];
  postback: Record<string, unknown> | null;
  /** A reaction: the message it names and the emoji (null when removed). */
  reaction: { messageId: string; emoji: string | null } | null;
}

export interface InboundWhatsAppStatus {
  kind: 'status';
  phoneNumberId: string;
  mid: string;
  status: WhatsAppStatus;
  at: number;
  errors: Json[] | null;
  pricing: Json | null;
  conversation: Json | null;
  recipient: { phone: string | null; userId: string | null };
}

export type WhatsAppInboundItem = InboundWhatsAppMessage | InboundWhatsAppStatus;

/** What the person sent, as stored: text, attachments (media by our download route), button presses. */
function contentOf(accountPath: string, type: string, m: Json): Pick<InboundWhatsAppMessage, 'text' | 'attachments' | 'postback'> {
  if (type === 'text') return { text: str(obj(m.text).body), attachments: [], postback: null };
  if (MEDIA.includes(type)) {
    const media = obj(m[type]);
    const id = str(media.id);
    return { text: str(media.caption), attachments: [{ type, url: id && /^\d{1,64}$/.test(id) ? `${accountPath}/media/${id}?download=1` : null }], postback: null };
  }
  if (type === 'button') {
    const button = obj(m.button);
    return { text: str(button.text), attachments: [], postback: { title: str(button.text), payload: str(button.payload) } };
  }
  if (type === 'interactive') {
    const interactive = obj(m.interactive);
    const reply = obj(interactive[str(interactive.type) ?? ''] ?? interactive.button_reply ?? interactive.list_reply);
    return { text: str(reply.title), attachments: [], postback: { title: str(reply.title), payload: str(reply.id), ...(str(reply.description) ? { description: str(reply.description) } : {}) } };
  }
  if (type === 'location') {
    const location = obj(m.location);
    return { text: str(location.name) ?? str(location.address), attachments: [{ type: 'location', url: null }], postback: null };
  }
  // contacts, order, system, unsupported …: recorded by their type, without text.
  return { text: null, attachments: [{ type, url: null }], postback: null };
}

/** The items of a stored body. Media URLs point at the account's download route, filled per account. */
export function parseWhatsAppMessages(body: string | Json): { items: WhatsAppInboundItem[]; ignored: string[] } {
  const parsed = readEnvelope(body);
  if (!parsed) return { items: [], ignored: [] };
  const out: { items: WhatsAppInboundItem[]; ignored: string[] } = { items: [], ignored: [] };
  if (parsed.object !== 'whatsapp_business_account') return out;
  const ignore = (why: string) => {
    if (!out.ignored.includes(why)) out.ignored.push(why);
  };
  for (const entry of arr(parsed.entry).map(obj)) {
    for (const change of arr(entry.changes).map(obj)) {
      if (change.field !== 'messages') continue;
      const value = obj(change.value);
      const phoneNumberId = str(obj(value.metadata).phone_number_id);
      if (!phoneNumberId) {
        ignore('whatsapp messages without metadata.phone_number_id');
        continue;
      }
      const names = new Map(arr(value.contacts).map(obj).map((c) => [str(c.wa_id) ?? '', str(obj(c.profile).name)]));
      for (const m of arr(value.messages).map(obj)) {
        const mid = str(m.id);
        const waId = str(m.from);
        const at = seconds(m.timestamp);
        const type = str(m.type) ?? 'unsupported';
        if (!mid || !waId || at === null) {
          ignore('whatsapp messages without id, from or timestamp');
          continue;
        }
        const reaction = type === 'reaction' ? obj(m.reaction) : null;
        out.items.push({
          kind: 'message',
          phoneNumberId,
          waId,
          name: names.get(waId) ?? null,
          mid,
          at,
          ...(reaction ? { text: null, attachments: [], postback: null } : contentOf('{account}', type, m)),
          reaction: reaction ? { messageId: str(reaction.message_id) ?? '', emoji: str(reaction.emoji) } : null,
        });
      }
      for (const s of arr(value.statuses).map(obj)) {
        const mid = str(s.id);
        const status = str(s.status) as WhatsAppStatus | null;
        const at = seconds(s.timestamp);
        if (!mid || !status || !STATUSES.includes(status) || at === null) {
          ignore('whatsapp statuses without id, a known status or timestamp');
          continue;
        }
        out.items.push({
          kind: 'status',
          phoneNumberId,
          mid,
          status,
          at,
          errors: Array.isArray(s.errors) ? s.errors.map(obj) : null,
          pricing: s.pricing === undefined ? null : obj(s.pricing),
          conversation: s.conversation === undefined ? null : obj(s.conversation),
          recipient: { phone: str(s.recipient_id), userId: str(s.recipient_user_id) },
        });
      }
    }
  }
  return out;
}

/** "131026: Message undeliverable (details)": the first error of a failed status, for the stored message. */
export function failureReason(errors: Json[] | null): string {
  const first = errors?.[0];
  if (!first) return 'failed without a reason given';
  const details = str(obj(first.error_data).details);
  const title = str(first.title) ?? str(first.message) ?? 'failed';
  return `${str(first.code) ?? '?'}: ${title}${details && details !== title ? ` (${details})` : ''}`.slice(0, 1000);
}

/** A status outran the storing of its message by the service's own send: processed again later. */
export class StatusTooEarly extends Error {
  constructor() {
    super('a status arrived while the send of its message is being stored; processed again later');
    this.name = 'StatusTooEarly';
  }
}

type Account = Pick<AccountRow, 'id' | 'organization_id' | 'platform' | 'external_id' | 'platform_user_id'>;

export async function recordWhatsAppMessages(trx: Kysely<Database>, deps: Pick<AppDeps, 'store'>, items: WhatsAppInboundItem[], receivedAt: number, now: number): Promise<number> {
  let emitted = 0;
  const ctx: EmitContext = { db: trx, store: deps.store, now };
  for (const phoneNumberId of [...new Set(items.map((i) => i.phoneNumberId))]) {
    const { rows: accounts } = await accountsByPlatformId.execute(trx, 'whatsapp', phoneNumberId);
    for (const account of accounts) {
      for (const item of items.filter((i) => i.phoneNumberId === phoneNumberId)) {
        const done = item.kind === 'message' ? await recordMessage(ctx, account, item, receivedAt) : await recordStatus(ctx, account, item, receivedAt);
        if (done) emitted++;
      }
    }
  }
  return emitted;
}

/** Writes the inbox row of the event; false when that platform event was recorded before. */
function claim(db: Kysely<Database>, account: Account, eventId: string, dedupeKey: string, data: unknown, receivedAt: number): Promise<boolean> {
  return recordInboxMessage(db, { eventId, organizationId: account.organization_id, accountId: account.id, platform: 'whatsapp', dedupeKey, data, receivedAt });
}

const byPlatformId = async (db: Kysely<Database>, accountId: string, mid: string) => (await messageByPlatformId.execute(db, accountId, mid)).rows[0];

async function recordMessage(ctx: EmitContext, account: Account, item: InboundWhatsAppMessage, receivedAt: number): Promise<boolean> {
  const { db, now } = ctx;
  const conversation: ConversationRow = await conversationFor(db, account, { id: item.waId, username: null, name: item.name }, item.at, now);
  const eventId = newId('event', now);
  const attachments = item.attachments.map((a) => ({ type: a.type, url: a.url?.replace('{account}', `/api/v1/whatsapp/accounts/${account.id}`) ?? null }));
  if (item.reaction) {
    const target = item.reaction.messageId ? await byPlatformId(db, account.id, item.reaction.messageId) : undefined;
    const facts: MessageFacts = {
      messageId: target?.id ?? null,
      platformMessageId: item.reaction.messageId || null,
      direction: target?.direction ?? 'outbound',
      text: target?.text ?? null,
      reaction: { action: item.reaction.emoji ? 'react' : 'unreact', emoji: item.reaction.emoji },
      sentAt: item.at,
    };
    const data = messageEventData(eventId, account, conversation, facts, receivedAt);
    if (!(await claim(db, account, eventId, `wa:${item.mid}`, data, receivedAt))) return false;
    if (target) await db.updateTable('messages').set({ reaction: item.reaction.emoji }).where('id', '=', target.id).execute();
    await emitMessageEvent(ctx, account.organization_id, 'message.reaction', data);
    return true;
  }
  const id = newId('message', now);
  const facts: MessageFacts = { messageId: id, platformMessageId: item.mid, direction: 'inbound', text: item.text, attachments, postback: item.postback, sentAt: item.at };
  const data = messageEventData(eventId, account, conversation, facts, receivedAt);
  if (!(await claim(db, account, eventId, `wa:${item.mid}`, data, receivedAt))) return false;
  const stored = await insertMessage(db, conversation, { id, direction: 'inbound', platformMessageId: item.mid, text: item.text, attachments, status: 'delivered', sentAt: item.at, postback: item.postback }, now);
  if (stored) await touchConversation(db, conversation.id, stored, now, 1);
  await emitMessageEvent(ctx, account.organization_id, 'message.received', data);
  return true;
}

async function recordStatus(ctx: EmitContext, account: Account, item: InboundWhatsAppStatus, receivedAt: number): Promise<boolean> {
  const { db } = ctx;
  let message = await byPlatformId(db, account.id, item.mid);
  if (!message && item.recipient.phone) {
    // A send to this person is in flight: its message is about to be stored; the job runs again later.
    const [pending] = (await conversationOf.execute(db, account.id, item.recipient.phone)).rows;
    if (pending?.sending_until != null && Number(pending.sending_until) > ctx.now) throw new StatusTooEarly();
    // On PostgreSQL the send's transaction (the message stored, the mark cleared) may have
    // committed between the first look and the conversation's read: a second look finds it.
    message = await byPlatformId(db, account.id, item.mid);
  }
  const eventId = newId('event', ctx.now);
  const data: EventData<'message.status'> = {
    eventId,
    platform: 'whatsapp',
    accountId: account.id,
    externalId: account.external_id,
    conversationId: message?.conversation_id ?? null,
    messageId: message?.id ?? null,
    platformMessageId: item.mid,
    status: item.status,
    errors: item.errors,
    pricing: item.pricing,
    conversation: item.conversation,
    recipient: item.recipient,
    timestamp: new Date(item.at).toISOString(),
    receivedAt: new Date(receivedAt).toISOString(),
  };
  if (!(await claim(db, account, eventId, `wa-status:${item.mid}:${item.status}`, data, receivedAt))) return false;
  if (message && item.status !== 'deleted' && message.direction === 'outbound') {
    // Statuses of one message may be processed at once by two jobs: the condition on the row as
    // it is when updated (not as read above) keeps the later status.
    if (item.status === 'failed') await markFailed.execute(db, message.id, failureReason(item.errors));
    else if (item.status !== 'sent') await advanceTo[item.status].execute(db, message.id);
  }
  await emitEvent(ctx, account.organization_id, 'message.status', data, { id: eventId });
  return true;
}

/** The registry's handler (platform-webhooks/handlers.ts) of WhatsApp messages and statuses. */
export const whatsappMessagesHandler = inboundHandler({
  name: 'whatsapp messages',
  kinds: [WHATSAPP_MESSAGES_KIND],
  parse: (body) => parseWhatsAppMessages(body),
  record: (trx, deps, parsed, receivedAt, now) => recordWhatsAppMessages(trx, deps, parsed.items, receivedAt, now),
});
