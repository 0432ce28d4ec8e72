// What the AppView answers from the records (views.ts is shared by reads.ts and notifications.ts):
// the records it has seen (`bluesky.appViewLagMs` after the PDS took them, the firehose's delay; 0
// by default), author and post views with their counts (the records' plus the control API's
// extras; embeds are answered as their records, no hydrated embed views), the caller's own like
// and repost of each post (`viewer`), and the query helpers.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { parseAtUri } from './codec.ts';
import { quotedUri } from './embeds.ts';
import { invalidRequest } from './errors.ts';
import { findAccount, type BlueskyAccount } from './people.ts';
import { atUri } from './records.ts';
import type { RepoRecord } from './store.ts';

export type Json = Record<string, unknown>;
export const POST = 'app.bsky.feed.post';
export const iso = (ms: number): string => new Date(ms).toISOString();
export const field = (value: unknown, key: string): unknown => (value && typeof value === 'object' ? (value as Json)[key] : undefined);
export const refUri = (value: unknown, key: string): string | undefined => {
  const uri = field(field(value, key), 'uri');
  return typeof uri === 'string' ? uri : undefined;
};

export function profileBasic(account: BlueskyAccount) {
  return { did: account.did, handle: account.handle, displayName: account.displayName, avatar: account.avatar, labels: [], createdAt: iso(account.createdAt) };
}

/** The AppView sees a record `bluesky.appViewLagMs` after the PDS took it. */
const seen = (state: SandboxState, record: RepoRecord): boolean => record.indexedAt + state.settings.bluesky.appViewLagMs <= state.clock.now();

export function records(state: SandboxState): RepoRecord[] {
  return [...state.bluesky.records.values()].filter((r) => seen(state, r));
}

/**
 * A post's counts (the records' plus the control API's extras) and the caller's relation to it
 * (app.bsky.feed.defs#viewerState): the at:// URIs of the caller's like and repost records, each
 * key left out when there is none, as the AppView does. The sandbox has no thread mutes, and does
 * not work out replyDisabled or embeddingDisabled, so those keys are never there.
 */
function engagement(state: SandboxState, uri: string, viewerDid: string) {
  const extra = state.bluesky.extraCounts.get(uri);
  let replyCount = extra?.replies ?? 0;
  let likeCount = extra?.likes ?? 0;
  let repostCount = extra?.reposts ?? 0;
  let quoteCount = extra?.quotes ?? 0;
  const viewer: { like?: string; repost?: string } = {};
  for (const r of records(state)) {
    if (r.collection === POST && refUri(r.value.reply, 'parent') === uri) replyCount++;
    if (r.collection === POST && quotedUri(r.value.embed) === uri) quoteCount++;
    if (r.collection === 'app.bsky.feed.like' && refUri(r.value, 'subject') === uri) {
      likeCount++;
      if (r.did === viewerDid) viewer.like = r.uri;
    }
    if (r.collection === 'app.bsky.feed.repost' && refUri(r.value, 'subject') === uri) {
      repostCount++;
      if (r.did === viewerDid) viewer.repost = r.uri;
    }
  }
  return { counts: { replyCount, repostCount, likeCount, quoteCount }, viewer };
}

/** A post as `viewerDid` (the caller of an authenticated read) sees it. */
export function postView(state: SandboxState, record: RepoRecord, viewerDid: string) {
  const author = state.people.blueskyAccounts.get(record.did);
  const { counts, viewer } = engagement(state, record.uri, viewerDid);
  return {
    uri: record.uri,
    cid: record.cid,
    author: author ? profileBasic(author) : { did: record.did, handle: 'handle.invalid' },
    record: record.value,
    ...counts,
    indexedAt: iso(record.indexedAt),
    viewer,
    labels: [],
  };
}

/** A post by at:// URI, the repository named by DID or handle. */
export function findPost(state: SandboxState, uri: string): RepoRecord | undefined {
  const parsed = parseAtUri(uri);
  if (!parsed || parsed.collection !== POST) return undefined;
  const account = findAccount(state, parsed.repo);
  const record = account ? state.bluesky.records.get(atUri(account.did, POST, parsed.rkey)) : undefined;
  return record && seen(state, record) ? record : undefined;
}

export function intParam(ctx: RouteContext, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.query[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw invalidRequest(`${name} must be an integer`);
  if (value < min) throw invalidRequest(`${name} can not be less than ${min}`);
  if (value > max) throw invalidRequest(`${name} can not be greater than ${max}`);
  return value;
}

/** Every value of a repeated query parameter (`uris=a&uris=b`). */
export function many(ctx: RouteContext, name: string): string[] {
  const value = (ctx.request.query as Record<string, unknown>)[name];
  const list: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string');
}
