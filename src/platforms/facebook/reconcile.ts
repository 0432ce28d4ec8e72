// Finding what an interrupted single-step call made on a Page (create-once.ts): the Page's
// feed, videos and stories, and an object's comments, read newest first from `since` on
// (platforms.md §3.1–3.2). Drafts are not listed by the feed, so an interrupted draft cannot be
// found; see docs/decisions.md.
import { graphTimeMs, list, obj, str } from '../json.ts';
import type { GraphCall } from '../meta/publish-steps.ts';

/** How many of the newest items a look reads: far more than a Page publishes in a few minutes. */
const LOOK_LIMIT = 100;

type Taken = (platformPostId: string) => Promise<boolean>;

async function firstMatch(items: unknown[], since: number, timeField: string, matches: (item: Record<string, unknown>) => boolean, taken: Taken | null): Promise<Record<string, unknown> | null> {
  // Oldest first: the interrupted call's post is the earliest one made after it began.
  for (const raw of [...items].reverse()) {
    const item = obj(raw);
    const at = graphTimeMs(item[timeField]);
    if (at === null || at < since || !matches(item)) continue;
    const id = str(item.id) ?? str(item.post_id);
    if (id && taken && (await taken(id))) continue;
    return item;
  }
  return null;
}

const sinceParam = (since: number) => Math.floor(since / 1000);

/** A feed post (text, link, photo, multi-photo) with this message, made since `since`. */
export async function findFeedPost(call: GraphCall, pageId: string, message: string, since: number, taken: Taken): Promise<string | null> {
  const page = await call('GET', `/${pageId}/feed`, { fields: 'id,message,created_time', since: sinceParam(since), limit: LOOK_LIMIT });
  const found = await firstMatch(list(page.data), since, 'created_time', (p) => (str(p.message) ?? '') === message, taken);
  return found ? str(found.id) : null;
}

/** A Page video uploaded with `/videos` with this description. */
export async function findVideo(call: GraphCall, pageId: string, description: string, since: number): Promise<string | null> {
  const page = await call('GET', `/${pageId}/videos`, { fields: 'id,description,created_time', since: sinceParam(since), limit: LOOK_LIMIT });
  const found = await firstMatch(list(page.data), since, 'created_time', (v) => (str(v.description) ?? '') === description, null);
  return found ? str(found.id) : null;
}

/** The story that shows this photo or video. */
export async function findStory(call: GraphCall, pageId: string, mediaId: string, since: number): Promise<string | null> {
  const page = await call('GET', `/${pageId}/stories`, { since: sinceParam(since), limit: LOOK_LIMIT });
  const found = await firstMatch(list(page.data), since, 'creation_time', (s) => str(s.media_id) === mediaId, null);
  return found ? str(found.post_id) : null;
}

/** A comment the Page made on an object with this message. */
export async function findPageComment(call: GraphCall, objectId: string, pageId: string, message: string, since: number): Promise<string | null> {
  const page = await call('GET', `/${objectId}/comments`, { fields: 'id,message,from,created_time', filter: 'stream', order: 'reverse_chronological', limit: LOOK_LIMIT });
  const found = await firstMatch(list(page.data), since, 'created_time', (c) => str(c.message) === message && str(obj(c.from).id) === pageId, null);
  return found ? str(found.id) : null;
}
