// Reads a Threads webhook (Meta's "Webhooks for Threads"; docs/adr/0022-threads.md).
// Threads does not use the Graph `{object, entry}` envelope: one notification is
//   {app_id, topic, target_id, time, subscription_id, has_uid_field, values: {value, field}}
// `replies` (topic moderate): the value is the reply itself,
//   {id, username, text, media_type, permalink, replied_to{id}, root_post{id, owner_id, username}, shortcode, timestamp}
// and target_id a media id. The value names no replier id, only a username: a reply is the
// account's own when that username is the root post owner's. The account is the root post's
// owner (root_post.owner_id): the field is about replies on the install user's media.
// `mentions` (topic interaction): the value is the mentioning media {id, username, text,
// media_type, permalink, shortcode, timestamp, …} and target_id the mentioned user's id.
// `publish` and `delete` have no event in the contract (ignored); an unknown field waits for a handler.
import type { InboundComment, Json, ParsedEnvelope } from './envelope.ts';

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

export const THREADS_OBJECT = 'threads';
/** The Threads kinds this reader turns into comments and mentions (`replies`, `mentions`) or ignores (`publish`, `delete`). */
export const THREADS_KINDS = ['replies', 'mentions', 'publish', 'delete'].map((field) => `${THREADS_OBJECT}.${field}`);

/** A Threads notification: no `object`, a `values` object with its `field`. */
export function isThreadsNotification(body: Json): boolean {
  return body.object === undefined && typeof obj(body.values).field === 'string' && 'app_id' in body;
}

export function parseThreadsNotification(body: Json): ParsedEnvelope {
  const values = obj(body.values);
  const field = str(values.field) ?? '?';
  const kind = `${THREADS_OBJECT}.${field}`;
  const out: ParsedEnvelope = { object: THREADS_OBJECT, items: [], ignored: [], unhandled: [] };
  if (field === 'publish' || field === 'delete') {
    out.ignored.push(kind);
    return out;
  }
  if (field !== 'replies' && field !== 'mentions') {
    out.unhandled.push(kind);
    return out;
  }
  const value = obj(values.value);
  const item = field === 'replies' ? threadsReply(value, str(body.target_id)) : threadsMention(value, str(body.target_id));
  if (item) out.items.push(item);
  else out.ignored.push(`${kind} without its ids`);
  return out;
}

/** A reply straight to the root post is a comment; one to another reply, a reply under it. */
function threadsReply(value: Json, targetId: string | null): InboundComment | null {
  const id = str(value.id);
  const root = obj(value.root_post);
  const rootId = str(root.id);
  const ownerId = str(root.owner_id) ?? targetId;
  if (!id || !rootId || !ownerId) return null;
  const repliedTo = str(obj(value.replied_to).id);
  const parentId = repliedTo && repliedTo !== rootId ? repliedTo : null;
  const username = str(value.username);
  const ownerName = str(root.username);
  return {
    platform: 'threads',
    accountPlatformId: ownerId,
    kind: parentId ? 'reply' : 'comment',
    dedupeKey: id,
    platformPostId: rootId,
    comment: { id, text: typeof value.text === 'string' ? value.text : '', username, parentId },
    fromId: username !== null && username === ownerName ? ownerId : null,
  };
}

/** A post of someone else that @mentions the account (target_id): keyed on that post, as instagram's are. */
function threadsMention(value: Json, targetId: string | null): InboundComment | null {
  const id = str(value.id);
  if (!id || !targetId) return null;
  return {
    platform: 'threads',
    accountPlatformId: targetId,
    kind: 'mention',
    dedupeKey: `media:${id}`,
    platformPostId: id,
    comment: { id, text: typeof value.text === 'string' ? value.text : '', username: str(value.username), parentId: null },
    fromId: null,
  };
}
