// What every inbound handler reads: a stored webhook body as its JSON object, and the comments
// and mentions the inbox turns into events. Its own file so that the Graph `{object, entry}`
// reader (meta-changes.ts) and the Threads reader (threads-changes.ts) share it without
// importing each other.

import { obj, type Json } from '../../platforms/json.ts';

export type { Json };

/**
 * A stored body as its JSON object, or null when it is not JSON. The process job parses a body
 * once and hands the object to every handler's parser; each also takes the raw text.
 */
export function readEnvelope(body: string | Json): Json | null {
  if (typeof body !== 'string') return body;
  try {
    return obj(JSON.parse(body));
  } catch {
    return null;
  }
}

export type InboundKind = 'comment' | 'reply' | 'mention';

export interface InboundComment {
  platform: 'instagram' | 'facebook' | 'threads';
  /** `entry[].id`: the Page id or the Instagram account id; threads: the root post's owner (an account's platform_user_id). */
  accountPlatformId: string;
  kind: InboundKind;
  /** The platform's own id of the event, unique per account and kind. */
  dedupeKey: string;
  platformPostId: string | null;
  comment: { id: string; text: string; username: string | null; parentId: string | null };
  /** The commenter: the account itself for its own comments, which emit nothing. */
  fromId: string | null;
}

export interface ParsedEnvelope {
  object: string | null;
  items: InboundComment[];
  /** Kinds understood and deliberately not turned into events (`page.feed comment remove` …). */
  ignored: string[];
  /** Kinds this reader leaves to the other handlers, or to none (`page.messaging` …); the job goes by the handlers' `kinds`. */
  unhandled: string[];
}
