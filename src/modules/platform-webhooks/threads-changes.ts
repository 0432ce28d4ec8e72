// Reads a Threads webhook (Meta's "Webhooks for Threads"; docs/decisions.md, issue 14 point 4).
// Threads does not use the Graph `{object, entry}` envelope: one notification is
//   {app_id, topic, target_id, time, subscription_id, has_uid_field, values: {value, field}}
// and a `replies` value is the reply itself:
//   {id, username, text, media_type, permalink, replied_to{id}, root_post{id, owner_id, username}, shortcode, timestamp}
// It names no replier id, only a username: a reply is the account's own when that username is
// the root post owner's. The account is the root post's owner (root_post.owner_id), which the
// replies field is about ("replies on media owned by the install user"); target_id is
// documented as a media id, so it is the fallback only. Other fields (mentions, publish,
// delete) have no handler: their shape is not confirmed enough to read.
import type { InboundComment, Json, ParsedEnvelope } from './meta-changes.ts';

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

export const THREADS_OBJECT = 'threads';

/** A Threads notification: no `object`, a `values` object with its `field`. */
export function isThreadsNotification(body: Json): boolean {
  return body.object === undefined && typeof obj(body.values).field === 'string' && 'app_id' in body;
}

export function parseThreadsNotification(body: Json): ParsedEnvelope {
  const values = obj(body.values);
  const field = str(values.field) ?? '?';
  const kind = `${THREADS_OBJECT}.${field}`;
  const out: ParsedEnvelope = { object: THREADS_OBJECT, items: [], ignored: [], unhandled: [] };
  if (field !== 'replies') {
    out.unhandled.push(kind);
    return out;
  }
  const item = threadsReply(obj(values.value), str(body.target_id));
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
