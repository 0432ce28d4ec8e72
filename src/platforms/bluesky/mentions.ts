// Bluesky mentions (DESIGN "Comments and inbox", the bluesky row; bluesky.md §6): others' posts
// that name the account (a mention facet) or quote one of its posts, from the account's
// notifications (listNotifications, reasons mention and quote), newest first. Bluesky sends no
// webhooks, so the inbox polls these (the definition's pollMentions) into mention.received.
import type { MentionReader, PlatformMention } from '../comments-types.ts';
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

export function blueskyMentions(api: Xrpc): MentionReader {
  return {
    async mentions(account, limit) {
      const session = sessionOf(account);
      const found: PlatformMention[] = [];
      let cursor: string | null = null;
      while (found.length < limit) {
        const query: Record<string, string | number> = { limit: Math.min(PAGE, limit - found.length), ...(cursor ? { cursor } : {}) };
        const body = await api.call(session.pds, MENTION_NOTIFICATIONS, { query, bearer: session.token });
        const page = list(body.notifications).map(obj).filter((n) => n.reason === 'mention' || n.reason === 'quote');
        found.push(...page.map((n) => mentionOf(api, n)));
        cursor = str(body.cursor);
        if (!cursor || !list(body.notifications).length) break;
      }
      return found.slice(0, limit);
    },
    async mentioned(account, ref) {
      const view = await postView(api, sessionOf(account), ref.commentId ?? ref.mediaId);
      return { text: text(obj(view?.record).text), username: str(obj(view?.author).handle) };
    },
  };
}
