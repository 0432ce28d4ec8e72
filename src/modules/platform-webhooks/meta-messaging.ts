// Reads the messaging items of a stored Meta webhook body (platforms.md §8.5, §2.9): each
// `entry[].messaging[]` item of object `page` (Messenger) or `instagram` (Instagram Direct) is
// one message, echo, read, delivery, reaction or postback. Checked key by key; an item without
// what it needs is ignored with a note, never guessed at. Its dedupe key is the platform's own
// identity of the event, so a Meta retry (same bytes or re-batched) finds it already recorded:
//   message, echo, postback  the mid
//   read                     the person and the watermark (Messenger) or the mid read (Instagram)
//   delivery                 the person, the watermark and the mids
//   reaction                 the mid, the person, the action and the event's timestamp (a person
//                            may react, unreact and react again)
import { createHash } from 'node:crypto';

import { readEnvelope, type Json } from './envelope.ts';

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);

export type MessagingKind = 'message' | 'echo' | 'read' | 'delivery' | 'reaction' | 'postback';

export interface MessagingItem {
  platform: 'instagram' | 'facebook';
  /** `entry[].id`: the Page or the Instagram account (an account's platform_user_id). */
  accountPlatformId: string;
  kind: MessagingKind;
  /** The person on the other side (the sender, or the recipient of an echo). */
  participantId: string;
  /** When it happened, epoch ms (the item's `timestamp`). */
  timestamp: number;
  dedupeKey: string;
  mid: string | null;
  mids: string[];
  text: string | null;
  attachments: Array<{ type: string; url: string | null }>;
  postback: { title: string | null; payload: string | null } | null;
  reaction: { action: 'react' | 'unreact'; emoji: string | null } | null;
  watermark: number | null;
}

export interface ParsedMessaging {
  items: MessagingItem[];
  ignored: string[];
}

/** The envelope kinds this parser reads: the messaging handler's (messaging-handler.ts). */
export const MESSAGING_KINDS = ['page.messaging', 'instagram.messaging'];

const PLATFORMS: Record<string, MessagingItem['platform']> = { page: 'facebook', instagram: 'instagram' };

export function parseMetaMessaging(body: string | Json): ParsedMessaging {
  const parsed = readEnvelope(body);
  if (!parsed) return { items: [], ignored: [] };
  const object = str(parsed.object) ?? '?';
  const platform = PLATFORMS[object];
  const out: ParsedMessaging = { items: [], ignored: [] };
  const ignore = (what: string) => {
    if (!out.ignored.includes(what)) out.ignored.push(what);
  };
  for (const entry of arr(parsed.entry).map(obj)) {
    const accountId = str(entry.id);
    for (const raw of arr(entry.messaging).map(obj)) {
      if (!platform || !accountId) {
        ignore(`${object}.messaging without its account`);
        continue;
      }
      const item = itemOf(platform, accountId, raw);
      if (typeof item === 'string') ignore(`${object}.messaging ${item}`);
      else out.items.push(item);
    }
  }
  return out;
}

const hash = (parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);

function attachmentsOf(message: Json): MessagingItem['attachments'] {
  return arr(message.attachments).map((a) => {
    const row = obj(a);
    return { type: str(row.type) ?? 'file', url: str(obj(row.payload).url) };
  });
}

/** The item, or what it was when it is not one the inbox records. */
function itemOf(platform: MessagingItem['platform'], accountPlatformId: string, raw: Json): MessagingItem | string {
  const sender = str(obj(raw.sender).id);
  const recipient = str(obj(raw.recipient).id);
  const timestamp = num(raw.timestamp);
  if (!sender || !recipient || timestamp === null) return 'item without sender, recipient or timestamp';
  const base = { platform, accountPlatformId, participantId: sender, timestamp, mid: null, mids: [], text: null, attachments: [], postback: null, reaction: null, watermark: null };
  if (raw.message !== undefined) {
    const message = obj(raw.message);
    const mid = str(message.mid);
    if (!mid) return 'message without mid';
    const echo = message.is_echo === true;
    // An echo goes from the account to the person.
    const participantId = echo ? recipient : sender;
    if (echo && sender !== accountPlatformId) return 'echo from another sender';
    return {
      ...base,
      kind: echo ? 'echo' : 'message',
      participantId,
      dedupeKey: `${echo ? 'echo' : 'message'}:${mid}`,
      mid,
      mids: [mid],
      text: typeof message.text === 'string' ? message.text : null,
      attachments: attachmentsOf(message),
    };
  }
  if (raw.read !== undefined) {
    const read = obj(raw.read);
    const watermark = num(read.watermark);
    const mid = str(read.mid);
    if (watermark === null && !mid) return 'read without watermark or mid';
    return { ...base, kind: 'read', dedupeKey: `read:${sender}:${watermark ?? mid}`, mid, mids: mid ? [mid] : [], watermark };
  }
  if (raw.delivery !== undefined) {
    const delivery = obj(raw.delivery);
    const mids = arr(delivery.mids).flatMap((m) => (str(m) ? [String(m)] : []));
    const watermark = num(delivery.watermark);
    if (watermark === null && !mids.length) return 'delivery without watermark or mids';
    return { ...base, kind: 'delivery', dedupeKey: `delivery:${sender}:${watermark ?? ''}:${hash(mids)}`, mid: mids[0] ?? null, mids, watermark };
  }
  if (raw.reaction !== undefined) {
    const reaction = obj(raw.reaction);
    const mid = str(reaction.mid);
    const action = reaction.action === 'unreact' ? 'unreact' : 'react';
    if (!mid) return 'reaction without mid';
    const emoji = str(reaction.emoji) ?? str(reaction.reaction);
    return { ...base, kind: 'reaction', dedupeKey: `reaction:${mid}:${sender}:${action}:${timestamp}`, mid, mids: [mid], reaction: { action, emoji: action === 'react' ? emoji : null } };
  }
  if (raw.postback !== undefined) {
    const postback = obj(raw.postback);
    const mid = str(postback.mid);
    const title = str(postback.title);
    return {
      ...base,
      kind: 'postback',
      dedupeKey: `postback:${mid ?? `${sender}:${timestamp}`}`,
      mid,
      mids: mid ? [mid] : [],
      text: title,
      postback: { title, payload: str(postback.payload) },
    };
  }
  const key = Object.keys(raw).find((k) => !['sender', 'recipient', 'timestamp'].includes(k));
  return key ?? 'empty item';
}
