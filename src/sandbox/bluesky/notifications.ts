// app.bsky.notification.* (bluesky.md §6): the caller's notifications, derived from other accounts'
// records the AppView has seen (views.ts): replies to its posts or threads, mentions of its DID,
// quotes, likes, reposts and follows; so deleting a record takes its notification away. Newest
// first, `reasons` filters, an opaque cursor; `isRead` follows updateSeen.
import type { RouteContext } from '../core/router.ts';
import { quotedUri } from './embeds.ts';
import { invalidRequest } from './errors.ts';
import { blueskyAuth } from './sessions.ts';
import type { RepoRecord } from './store.ts';
import { field, intParam, iso, many, POST, profileBasic, records, refUri } from './views.ts';

interface Notification {
  record: RepoRecord;
  reason: string;
  reasonSubject?: string;
}

const ownedBy = (did: string, uri: string | undefined | null): boolean => typeof uri === 'string' && uri.startsWith(`at://${did}/`);

function mentions(record: RepoRecord, did: string): boolean {
  const facets = record.value.facets;
  if (!Array.isArray(facets)) return false;
  return facets.some((f) => {
    const features = field(f, 'features');
    return Array.isArray(features) && features.some((x) => field(x, '$type') === 'app.bsky.richtext.facet#mention' && field(x, 'did') === did);
  });
}

/** What another account's record tells this account, if anything. */
function notificationOf(record: RepoRecord, did: string): Notification | null {
  if (record.did === did) return null;
  const value = record.value;
  switch (record.collection) {
    case POST: {
      const parent = refUri(value.reply, 'parent');
      const root = refUri(value.reply, 'root');
      if (ownedBy(did, parent)) return { record, reason: 'reply', reasonSubject: parent };
      if (ownedBy(did, root)) return { record, reason: 'reply', reasonSubject: root };
      const quoted = quotedUri(value.embed);
      if (ownedBy(did, quoted)) return { record, reason: 'quote', reasonSubject: quoted ?? undefined };
      return mentions(record, did) ? { record, reason: 'mention' } : null;
    }
    case 'app.bsky.feed.like':
    case 'app.bsky.feed.repost': {
      const subject = refUri(value, 'subject');
      return ownedBy(did, subject) ? { record, reason: record.collection === 'app.bsky.feed.like' ? 'like' : 'repost', reasonSubject: subject } : null;
    }
    case 'app.bsky.graph.follow':
      return value.subject === did ? { record, reason: 'follow' } : null;
    default:
      return null;
  }
}

const REASONS = ['like', 'repost', 'follow', 'mention', 'reply', 'quote', 'starterpack-joined', 'verified', 'unverified', 'like-via-repost', 'repost-via-repost', 'subscribed-post'];

/** GET app.bsky.notification.listNotifications?limit&cursor&reasons&seenAt: newest first. */
export function listNotifications(ctx: RouteContext): unknown {
  const { account } = blueskyAuth(ctx);
  const limit = intParam(ctx, 'limit', 50, 1, 100);
  const reasons = many(ctx, 'reasons');
  const unknown = reasons.find((r) => !REASONS.includes(r));
  if (unknown) throw invalidRequest(`reasons must be one of ${REASONS.join(', ')}`);
  const cursor = ctx.query.cursor;
  const key = (n: Notification) => `${String(n.record.indexedAt).padStart(15, '0')}|${n.record.uri}`;
  const all = records(ctx.state)
    .map((r) => notificationOf(r, account.did))
    .filter((n): n is Notification => n !== null && (reasons.length === 0 || reasons.includes(n.reason)))
    .sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0))
    .filter((n) => !cursor || key(n) < cursor);
  const page = all.slice(0, limit);
  const last = page.at(-1);
  return {
    notifications: page.map((n) => {
      const author = ctx.state.people.blueskyAccounts.get(n.record.did);
      return {
        uri: n.record.uri,
        cid: n.record.cid,
        author: author ? profileBasic(author) : { did: n.record.did, handle: 'handle.invalid' },
        reason: n.reason,
        ...(n.reasonSubject ? { reasonSubject: n.reasonSubject } : {}),
        record: n.record.value,
        isRead: n.record.indexedAt <= account.seenAt,
        indexedAt: iso(n.record.indexedAt),
        labels: [],
      };
    }),
    ...(last && all.length > limit ? { cursor: key(last) } : {}),
    ...(account.seenAt ? { seenAt: iso(account.seenAt) } : {}),
    priority: false,
  };
}

/** POST app.bsky.notification.updateSeen {seenAt}. */
export function updateSeen(ctx: RouteContext): unknown {
  const { account } = blueskyAuth(ctx);
  const seenAt = field(ctx.body, 'seenAt');
  const ms = typeof seenAt === 'string' ? Date.parse(seenAt) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidRequest('Input/seenAt must be an valid atproto datetime (both RFC-3339 and ISO-8601)');
  account.seenAt = Math.max(account.seenAt, ms);
  return ctx.reply.status(200).send();
}
