// Bluesky mentions (DESIGN "Comments and inbox", the bluesky row; bluesky.md §6): others' posts
// that name the account (a mention facet) or quote one of its posts, from the account's
// notifications (listNotifications, reasons mention and quote), newest first. Bluesky sends no
// webhooks, so the inbox polls these (the definition's pollMentions) into mention.received.
import type { MentionReader, PlatformMention } from '../comments-types.ts';
import type { AccountCredentials } from '../types.ts';
import { list, obj, str, text, type Json } from '../json.ts';
import { postUrl } from '../post-url.ts';
import { postView } from './comments.ts';
import { sessionOf } from './connect.ts';
import { parseAtUri } from './repo.ts';
import type { Xrpc } from './xrpc.ts';

/** listNotifications' largest page. */
const PAGE = 100;
/** `reasons` is a repeated parameter; the client's query takes one value per name, so it is written into the path. */
const MENTION_NOTIFICATIONS = 'app.bsky.notification.listNotifications?reasons=mention&reasons=quote';

function mentionOf(api: Xrpc, item: Json): PlatformMention {
  const uri = text(item.uri);
  const author = obj(item.author);
  const record = obj(item.record);
  const handle = str(author.handle);
  const rkey = parseAtUri(uri)?.rkey;
  const created = Date.parse(text(record.createdAt) || text(item.indexedAt));
  return {
    mediaId: uri,
    platform: 'bluesky',
    caption: str(record.text),
    mediaType: null,
    permalink: handle && rkey ? postUrl(api.http, `https://bsky.app/profile/${handle}/post/${rkey}`, 'https://bsky.app') : null,
    username: handle,
    createdAt: Number.isNaN(created) ? null : created,
  };
}

/** One page of the account's mention and quote notifications, newest first, with each one's indexedAt. */
async function notificationPage(api: Xrpc, account: AccountCredentials, limit: number, cursor: string | null) {
  const session = sessionOf(account);
  const query: Record<string, string | number> = { limit: Math.min(PAGE, limit), ...(cursor ? { cursor } : {}) };
  const body = await api.call(session.pds, MENTION_NOTIFICATIONS, { query, bearer: session.token });
  const items = list(body.notifications).map(obj);
  const mentions = items.filter((n) => n.reason === 'mention' || n.reason === 'quote').map((n) => ({ mention: mentionOf(api, n), indexedAt: text(n.indexedAt) }));
  return { mentions, next: items.length ? (str(body.cursor) ?? null) : null };
}

export function blueskyMentions(api: Xrpc): MentionReader {
  return {
    async mentions(account, limit) {
      const found: PlatformMention[] = [];
      let cursor: string | null = null;
      do {
        const page = await notificationPage(api, account, limit - found.length, cursor);
        found.push(...page.mentions.map((m) => m.mention));
        cursor = page.next;
      } while (cursor && found.length < limit);
      return found.slice(0, limit);
    },
    // The mark is the newest notification's indexedAt (the order Bluesky lists them in; a post's
    // own createdAt is the client's): pages are read until one is older than the mark or, before
    // there is one, than `time`. Those indexed in the mark's very moment are read again, and
    // recorded once.
    async mentionsSince(account, { mark, time }, limit) {
      const since = mark === null ? time : Date.parse(mark);
      const found: Array<{ mention: PlatformMention; indexedAt: string }> = [];
      let cursor: string | null = null;
      let reached = false;
      do {
        const page = await notificationPage(api, account, PAGE, cursor);
        for (const item of page.mentions) {
          if (Date.parse(item.indexedAt) < since) reached = true;
          else found.push(item);
        }
        cursor = page.next;
      } while (!reached && cursor && found.length < limit);
      const newest = found[0]?.indexedAt;
      return { mentions: found.slice(0, limit).map((m) => m.mention), mark: newest || mark, truncated: !reached && (cursor !== null || found.length > limit) };
    },
    async mentioned(account, ref) {
      const view = await postView(api, sessionOf(account), ref.commentId ?? ref.mediaId);
      return { text: text(obj(view?.record).text), username: str(obj(view?.author).handle) };
    },
  };
}
