// Bluesky replies as comments (DESIGN "Comments and inbox", the bluesky row; bluesky.md §6): a
// post's replies are its thread (getPostThread, depth 10), one tree read whole and paged here by
// top-level reply; a comment's id is the reply's at:// URI. A reply is a post record with strong
// refs to its thread's root and its parent, under a key chosen before createRecord, so a lost
// answer is settled by reading that key. Hiding is the root post's thread gate (`hiddenReplies`,
// the gate's own key is the post's), liking a like record, deleting the account's own reply.
import { PlatformError } from '../errors.ts';
import { list, numberOf, obj, str, strings, text, type Json } from '../json.ts';
import type { AccountCredentials, CommentHider, CommentLiker, CommentReader, CommentRemover, CommentWriter, PlatformComment } from '../types.ts';
import { resolveHandle } from './identity.ts';
import { sessionOf } from './connect.ts';
import { createRecord, deleteRecord, getRecord, parseAtUri, POST, putRecord, THREADGATE, type StrongRef } from './repo.ts';
import { facetsOf, textProblem } from './text.ts';
import { tids } from './tid.ts';
import type { Session, Xrpc } from './xrpc.ts';

export const LIKE = 'app.bsky.feed.like';
/** How deep a thread is read (DESIGN: depth 10); replies further down are not listed. */
export const THREAD_DEPTH = 10;
/** The thread gate lexicon's bound on `hiddenReplies`. */
export const MAX_HIDDEN_REPLIES = 300;
/** Pages of the account's like records looked through to find its like of a post. */
const LIKE_PAGES = 10;

const failure = (kind: 'invalid' | 'permission' | 'transient', message: string) => new PlatformError(kind, message, { platform: 'bluesky' });

/** A post view as getPosts answers it (uri, cid, author, record, counts, viewer), or null when Bluesky has none. */
export async function postView(api: Xrpc, session: Session, uri: string): Promise<Json | null> {
  const body = await api.call(session.pds, 'app.bsky.feed.getPosts', { query: { uris: uri }, bearer: session.token });
  return list(body.posts).map(obj).find((p) => str(p.uri) === uri) ?? null;
}

function refOf(view: Json): StrongRef {
  return { uri: text(view.uri), cid: text(view.cid) };
}

/** Flattens a thread's replies: each top-level reply followed by the replies under it, depth first. */
export function flattenThread(thread: Json, postUri: string, ownDid: string, hidden: ReadonlySet<string>): PlatformComment[][] {
  const groups: PlatformComment[][] = [];
  const walk = (node: Json, into: PlatformComment[]) => {
    const post = obj(node.post);
    const uri = str(post.uri);
    // notFoundPost and blockedPost have no post: nothing of them (nor under them) is shown.
    if (!uri) return;
    const record = obj(post.record);
    const author = obj(post.author);
    const parent = str(obj(obj(record.reply).parent).uri);
    const created = Date.parse(text(record.createdAt));
    into.push({
      id: uri,
      platform: 'bluesky',
      platformPostId: postUri,
      text: text(record.text),
      username: str(author.handle),
      parentId: parent === null || parent === postUri ? null : parent,
      createdAt: Number.isNaN(created) ? null : created,
      hidden: hidden.has(uri),
      likeCount: numberOf(post.likeCount) ?? 0,
      isOwn: text(author.did) === ownDid,
    });
    for (const child of list(node.replies).map(obj)) walk(child, into);
  };
  for (const top of list(thread.replies).map(obj)) {
    const group: PlatformComment[] = [];
    walk(top, group);
    if (group.length) groups.push(group);
  }
  return groups;
}

/** The page cursor: how many top-level replies earlier pages held. */
function offsetOf(after: string | null): number {
  if (after === null) return 0;
  if (!/^\d{1,6}$/.test(after)) throw failure('invalid', 'after: not a cursor of a Bluesky comment list');
  return Number(after);
}

const isOwnPost = (session: Session, uri: string): boolean => {
  const parts = parseAtUri(uri);
  return parts !== null && parts.repo === session.did && parts.collection === POST;
};

export function blueskyComments(api: Xrpc, entryway: string): { reader: CommentReader; writer: CommentWriter; hider: CommentHider; liker: CommentLiker; remover: CommentRemover } {
  /** A reply under `parentUri`, as a post record at a key chosen first; a lost answer is looked up by that key. */
  const reply = async (account: AccountCredentials, parentUri: string, content: string) => {
    const problem = textProblem(content);
    if (problem) throw failure('invalid', `text: ${problem}`);
    const session = sessionOf(account);
    const parent = await postView(api, session, parentUri);
    if (!parent) throw failure('invalid', `Bluesky has no post ${parentUri} (deleted, or not a post)`);
    const parentRef = refOf(parent);
    const rootRef = obj(obj(obj(parent.record).reply).root);
    const root = str(rootRef.uri) && str(rootRef.cid) ? { uri: text(rootRef.uri), cid: text(rootRef.cid) } : parentRef;
    const now = Date.now();
    const [rkey = ''] = tids(now, 1);
    const facets = await facetsOf(content, (handle) => resolveHandle(api, entryway, handle));
    const record: Json = { $type: POST, text: content, ...(facets.length ? { facets } : {}), reply: { root, parent: parentRef }, createdAt: new Date(now).toISOString() };
    try {
      return { id: (await createRecord(api, session, POST, rkey, record)).uri };
    } catch (error) {
      // No answer, or a 5xx: the record may exist. Its key says; anything else is the answer.
      if (!(error instanceof PlatformError) || error.kind !== 'transient') throw error;
      const found = await getRecord(api, session, session.did, POST, rkey);
      if (found) return { id: found.uri };
      throw error;
    }
  };

  /** The thread root of a reply we may moderate: one of the account's own posts. */
  const rootOf = async (session: Session, commentId: string): Promise<string> => {
    const view = await postView(api, session, commentId);
    if (!view) throw failure('invalid', `Bluesky has no reply ${commentId}`);
    const root = str(obj(obj(obj(view.record).reply).root).uri);
    if (!root) throw failure('invalid', `${commentId} is a post, not a reply`);
    if (!isOwnPost(session, root)) throw failure('permission', 'Bluesky hides replies only in threads the account started');
    return root;
  };

  /**
   * The account's like record of the post: the AppView's viewer state, else a look through its
   * likes (newest first). The AppView trails the PDS by the firehose's delay, so `recent` (an
   * unlike) looks at the newest page of likes too when the view shows none: a like made a moment
   * ago is still undone.
   */
  const likeOf = async (session: Session, view: Json, recent: boolean): Promise<string | null> => {
    const viewer = view.viewer === undefined ? null : obj(view.viewer);
    const seen = viewer && str(viewer.like);
    if (seen) return seen;
    if (viewer && !recent) return null;
    let cursor: string | null = null;
    for (let page = 0; page < (viewer ? 1 : LIKE_PAGES); page++) {
      const query: Record<string, string | number> = { repo: session.did, collection: LIKE, limit: 100, ...(cursor ? { cursor } : {}) };
      const body = await api.call(session.pds, 'com.atproto.repo.listRecords', { query, bearer: session.token });
      const found = list(body.records).map(obj).find((r) => str(obj(obj(r.value).subject).uri) === str(view.uri));
      if (found) return str(found.uri);
      cursor = str(body.cursor);
      if (!cursor) break;
    }
    return null;
  };

  return {
    reader: {
      async list(account, postUri, page) {
        const session = sessionOf(account);
        const body = await api.call(session.pds, 'app.bsky.feed.getPostThread', { query: { uri: postUri, depth: THREAD_DEPTH, parentHeight: 0 }, bearer: session.token });
        const hidden = new Set(strings(obj(obj(body.threadgate).record).hiddenReplies));
        const groups = flattenThread(obj(body.thread), postUri, account.platformUserId, hidden);
        const start = offsetOf(page.after);
        const end = start + page.limit;
        return { comments: groups.slice(start, end).flat(), after: end < groups.length ? String(end) : null };
      },
    },
    writer: {
      reply: (account, commentId, content) => reply(account, commentId, content),
      comment: (account, postUri, content) => reply(account, postUri, content),
    },
    hider: {
      async setHidden(account, commentId, hide) {
        const session = sessionOf(account);
        const rootUri = await rootOf(session, commentId);
        const rkey = parseAtUri(rootUri)?.rkey ?? '';
        const gate = await getRecord(api, session, session.did, THREADGATE, rkey);
        const hiddenNow = strings(obj(gate?.value).hiddenReplies);
        if (hiddenNow.includes(commentId) === hide) return;
        if (hide && hiddenNow.length >= MAX_HIDDEN_REPLIES) throw failure('invalid', `Bluesky hides at most ${MAX_HIDDEN_REPLIES} replies in a thread; unhide one first`);
        const next = hide ? [...hiddenNow, commentId] : hiddenNow.filter((uri) => uri !== commentId);
        // The gate keeps its `allow` as it is; a new one has none (everyone may still reply).
        const value: Json = gate ? { ...gate.value, hiddenReplies: next } : { $type: THREADGATE, post: rootUri, hiddenReplies: next, createdAt: new Date().toISOString() };
        await putRecord(api, session, THREADGATE, rkey, value);
      },
    },
    liker: {
      async setLiked(account, commentId, liked) {
        const session = sessionOf(account);
        const view = await postView(api, session, commentId);
        if (!view) throw failure('invalid', `Bluesky has no post ${commentId}`);
        const existing = await likeOf(session, view, !liked);
        if (liked) {
          if (existing) return;
          const now = Date.now();
          const [rkey = ''] = tids(now, 1);
          await createRecord(api, session, LIKE, rkey, { $type: LIKE, subject: refOf(view), createdAt: new Date(now).toISOString() });
          return;
        }
        const key = existing ? parseAtUri(existing) : null;
        if (key) await deleteRecord(api, session, LIKE, key.rkey);
      },
    },
    remover: {
      async remove(account, commentId) {
        const session = sessionOf(account);
        const parts = parseAtUri(commentId);
        if (!parts || parts.collection !== POST) throw failure('invalid', `${commentId} is not the at:// URI of a Bluesky post`);
        // Another person's record is in their repository: the PDS would answer 401, which reads as a lost session.
        if (parts.repo !== session.did) throw failure('permission', "Bluesky deletes only the account's own replies; this one is another account's");
        await deleteRecord(api, session, POST, parts.rkey);
      },
    },
  };
}
