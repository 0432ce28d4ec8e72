// Finding what an interrupted single-step call made on a Page (create-once.ts): the Page's
// feed, videos and stories, and an object's comments, read newest first from `since` on
// (platforms.md §3.1–3.2), page after page until the look has seen back to `since`
// (look-back.ts). Drafts are not listed by the feed, so an interrupted draft cannot be found;
// see docs/adr/0023-facebook-and-instagram.md.
import { obj, str, type Json } from '../json.ts';
import { confirmedLook } from '../look-back.ts';
import { graphLook } from '../meta/graph-look.ts';
import type { GraphCall } from '../meta/publish-steps.ts';

type Taken = (platformPostId: string) => Promise<boolean>;

const sinceParam = (since: number) => Math.floor(since / 1000);
const reader = (call: GraphCall, path: string) => (params: Record<string, string | number>) => call('GET', path, params);
const notTaken = async (id: string | null, taken: Taken | null) => id !== null && !(taken && (await taken(id)));

/** A feed post (text, link, photo, multi-photo) with this message, made since `since`. */
export async function findFeedPost(call: GraphCall, pageId: string, message: string, since: number, taken: Taken): Promise<string | null> {
  const matches = async (p: Json) => (str(p.message) ?? '') === message && (await notTaken(str(p.id), taken));
  const found = await confirmedLook(since, graphLook(reader(call, `/${pageId}/feed`), { fields: 'id,message,created_time', since: sinceParam(since) }, 'created_time', matches));
  return found ? str(found.id) : null;
}

/** A Page video uploaded with `/videos` with this description. */
export async function findVideo(call: GraphCall, pageId: string, description: string, since: number): Promise<string | null> {
  const matches = (v: Json) => (str(v.description) ?? '') === description && str(v.id) !== null;
  const found = await confirmedLook(since, graphLook(reader(call, `/${pageId}/videos`), { fields: 'id,description,created_time', since: sinceParam(since) }, 'created_time', matches));
  return found ? str(found.id) : null;
}

/** The story that shows this photo or video. */
export async function findStory(call: GraphCall, pageId: string, mediaId: string, since: number): Promise<string | null> {
  const matches = (s: Json) => str(s.media_id) === mediaId && str(s.post_id) !== null;
  const found = await confirmedLook(since, graphLook(reader(call, `/${pageId}/stories`), { since: sinceParam(since) }, 'creation_time', matches));
  return found ? str(found.post_id) : null;
}

/** A comment the Page made on an object with this message. */
export async function findPageComment(call: GraphCall, objectId: string, pageId: string, message: string, since: number): Promise<string | null> {
  const matches = (c: Json) => str(c.message) === message && str(obj(c.from).id) === pageId && str(c.id) !== null;
  const params = { fields: 'id,message,from,created_time', filter: 'stream', order: 'reverse_chronological' };
  const found = await confirmedLook(since, graphLook(reader(call, `/${objectId}/comments`), params, 'created_time', matches));
  return found ? str(found.id) : null;
}
