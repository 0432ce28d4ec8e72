// Reads a stored Meta webhook body (platforms.md §8.2) into the comments and mentions the inbox
// turns into events, and the kinds it leaves to later handlers. Parsed here, at the boundary:
// Meta's values are checked key by key, and a change missing what it needs is skipped, not
// guessed at.
//   instagram `comments` (§2.9, §8.4): {id, text, from{id, username}, media{id}, parent_id?}
//   instagram `mentions` (§2.7, §8.4): {media_id, comment_id?}: ids only, no text or author
//   page `feed` with item `comment` (§8.3): {verb, post_id, comment_id, parent_id, from{id, name}, message}
// Only an added Page comment is an event: an edited, removed, hidden or unhidden one has no
// event in the contract, and neither have reactions, posts or other feed items (ignored).
// Threads notifications share the callback but not the envelope: threads-changes.ts reads them.

import { readEnvelope, type InboundComment, type Json, type ParsedEnvelope } from './envelope.ts';
import { isThreadsNotification, parseThreadsNotification } from './threads-changes.ts';

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** The Graph `object.field` kinds this reader turns into comments and mentions (or ignores, for other feed items). */
export const META_CHANGE_KINDS = ['instagram.comments', 'instagram.mentions', 'page.feed'];

export function parseMetaEnvelope(body: string | Json): ParsedEnvelope {
  const parsed = readEnvelope(body);
  if (!parsed) return { object: null, items: [], ignored: ['a body that is not JSON'], unhandled: [] };
  if (isThreadsNotification(parsed)) return parseThreadsNotification(parsed);
  const object = str(parsed.object);
  const out: ParsedEnvelope = { object, items: [], ignored: [], unhandled: [] };
  const add = (list: string[], kind: string) => {
    if (!list.includes(kind)) list.push(kind);
  };
  for (const entry of arr(parsed.entry).map(obj)) {
    const entryId = str(entry.id);
    for (const change of arr(entry.changes).map(obj)) {
      const field = str(change.field) ?? '?';
      const kind = `${object ?? '?'}.${field}`;
      const value = obj(change.value);
      if (object === 'instagram' && field === 'comments') pushOrIgnore(out, kind, entryId && instagramComment(entryId, value));
      else if (object === 'instagram' && field === 'mentions') pushOrIgnore(out, kind, entryId && instagramMention(entryId, value));
      else if (object === 'page' && field === 'feed') {
        const item = str(value.item) ?? '?';
        const verb = str(value.verb) ?? '?';
        if (item === 'comment' && verb === 'add') pushOrIgnore(out, kind, entryId && pageComment(entryId, value));
        else add(out.ignored, `${kind} ${item} ${verb}`);
      } else add(out.unhandled, kind);
    }
    if (arr(entry.messaging).length) add(out.unhandled, `${object ?? '?'}.messaging`);
  }
  return out;
}

function pushOrIgnore(out: ParsedEnvelope, kind: string, item: InboundComment | null | ''): void {
  if (item) out.items.push(item);
  else if (!out.ignored.includes(`${kind} without its ids`)) out.ignored.push(`${kind} without its ids`);
}

function instagramComment(entryId: string, value: Json): InboundComment | null {
  const id = str(value.id);
  if (!id) return null;
  const from = obj(value.from);
  const parentId = str(value.parent_id);
  return {
    platform: 'instagram',
    accountPlatformId: entryId,
    kind: parentId ? 'reply' : 'comment',
    dedupeKey: id,
    platformPostId: str(obj(value.media).id),
    comment: { id, text: typeof value.text === 'string' ? value.text : '', username: str(from.username), parentId },
    fromId: str(from.id),
  };
}

/** A caption mention names the other person's media; a comment mention, their comment on it. */
function instagramMention(entryId: string, value: Json): InboundComment | null {
  const mediaId = str(value.media_id);
  if (!mediaId) return null;
  const commentId = str(value.comment_id);
  return {
    platform: 'instagram',
    accountPlatformId: entryId,
    kind: 'mention',
    dedupeKey: commentId ? `comment:${commentId}` : `media:${mediaId}`,
    platformPostId: mediaId,
    comment: { id: commentId ?? mediaId, text: '', username: null, parentId: null },
    fromId: null,
  };
}

/** A facebook comment's username is the commenter's `from.name` (DESIGN); its parent is the post for a top-level one. */
function pageComment(entryId: string, value: Json): InboundComment | null {
  const id = str(value.comment_id);
  if (!id) return null;
  const from = obj(value.from);
  const postId = str(value.post_id);
  const parent = str(value.parent_id);
  const parentId = parent && parent !== postId ? parent : null;
  return {
    platform: 'facebook',
    accountPlatformId: entryId,
    kind: parentId ? 'reply' : 'comment',
    dedupeKey: id,
    platformPostId: postId,
    comment: { id, text: typeof value.message === 'string' ? value.message : '', username: str(from.name), parentId },
    fromId: str(from.id),
  };
}
