// Page comments (platforms.md §3.2): `/{object-id}/comments` on posts and comments (list with
// filter, order and summary; create as the Page), the comment node (edit own, hide/unhide,
// delete), Page likes (once per Page, `user_likes`), replies as the `comments` field, and people commenting or reacting through the control API. Each change
// sends the Page `feed` webhook (item comment / reaction, §8.3). People's comments are read only
// with pages_read_user_content.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { emitChange } from '../meta/events.ts';
import { invalidParameter } from '../meta/graph-error.ts';
import { pageOf } from '../meta/paging.ts';
import { parseFields, selectFields, type FieldGetters } from '../meta/fields.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { graphTime } from '../meta/store.ts';
import { personFor, type PersonInput } from '../messaging/persons.ts';
import { isPublished, MESSAGE_LIMIT } from './posts.ts';
import type { FbComment, FbPost } from './store.ts';

export type CommentFilter = (comment: FbComment) => boolean;

/**
 * What a token may read of a Page's comments: everything with pages_read_user_content; without
 * it Meta leaves people's comments out (the Page's own stay) and says nothing (platforms.md §3).
 */
export function readableBy(token: TokenRecord): CommentFilter {
  const people = token.scopes.includes('pages_read_user_content');
  return (comment) => people || comment.fromId === comment.pageId;
}

const everyComment: CommentFilter = () => true;

export function commentGetters(state: SandboxState, comment: FbComment, nested = true, readable: CommentFilter = everyComment): FieldGetters {
  const replies = () => childrenOf(state, comment.postId, comment.id).filter(readable).sort((a, b) => a.createdAt - b.createdAt);
  const fields = {
    id: () => comment.id,
    message: () => comment.message,
    created_time: () => graphTime(comment.createdAt),
    from: () => ({ name: comment.fromName, id: comment.fromId }),
    like_count: () => comment.likeCount,
    comment_count: () => replies().length,
    is_hidden: () => comment.hidden,
    can_hide: () => comment.fromId !== comment.pageId,
    can_remove: () => true,
    parent: () => (comment.parentId ? { id: comment.parentId } : undefined),
    object: () => ({ id: comment.postId }),
    permalink_url: () => `https://www.facebook.com/${comment.postId.replace('_', '/posts/')}?comment_id=${comment.id}`,
    attachment: () => (comment.attachmentUrl ? { type: 'photo', media: { image: { src: comment.attachmentUrl } } } : undefined),
    user_likes: () => comment.likedByPage === true,
  };
  if (!nested) return fields;
  // The `comments` edge as a field (`comments{…}`): the replies, oldest first, each with every
  // field but its own replies; the caller's sub-selection narrows them.
  const comments = () => ({ data: replies().map((r) => Object.fromEntries(Object.entries(commentGetters(state, r, false, readable)).flatMap(([k, get]) => (get() === undefined ? [] : [[k, get()]])))) });
  return { ...fields, comments };
}

export const commentRow = (state: SandboxState, comment: FbComment, input: GraphInput, readable: CommentFilter = everyComment) =>
  selectFields('Comment', commentGetters(state, comment, true, readable), parseFields(str(input, 'fields')), ['created_time', 'from', 'message', 'id']);

function childrenOf(state: SandboxState, postId: string, parentId: string | null): FbComment[] {
  return [...state.meta.fbComments.values()].filter((c) => c.postId === postId && c.parentId === parentId);
}

/** GET /{post-or-comment}/comments?filter=toplevel|stream&order=chronological|reverse_chronological&summary=true. */
export function listComments(ctx: RouteContext, input: GraphInput, postId: string, parentId: string | null, readable: CommentFilter) {
  const stream = str(input, 'filter') === 'stream';
  const order = str(input, 'order') === 'reverse_chronological' ? 'reverse_chronological' : 'chronological';
  let rows = stream && parentId === null ? [...ctx.state.meta.fbComments.values()].filter((c) => c.postId === postId) : childrenOf(ctx.state, postId, parentId);
  rows = rows.filter(readable).sort((a, b) => a.createdAt - b.createdAt);
  if (order === 'reverse_chronological') rows.reverse();
  const page = pageOf(ctx, input, rows.map((c) => commentRow(ctx.state, c, input, readable)));
  return str(input, 'summary') === 'true' || str(input, 'summary') === '1' ? { ...page, summary: { order, total_count: rows.length, can_comment: true } } : page;
}

export function storeComment(state: SandboxState, post: FbPost, parent: FbComment | null, from: { id: string; name: string }, message: string, attachmentUrl: string | null): FbComment {
  const comment: FbComment = {
    id: `${post.id.split('_')[1] ?? post.id}_${state.ids.numeric('fb-comment', '1', 16)}`,
    pageId: post.pageId,
    postId: post.id,
    parentId: parent?.id ?? null,
    message,
    fromId: from.id,
    fromName: from.name,
    createdAt: state.clock.now(),
    hidden: false,
    likeCount: 0,
    attachmentUrl,
  };
  state.meta.fbComments.set(comment.id, comment);
  commentEvent(state, comment, 'add');
  return comment;
}

export function commentEvent(state: SandboxState, comment: FbComment, verb: 'add' | 'edited' | 'remove' | 'hide' | 'unhide'): void {
  const post = state.meta.fbPosts.get(comment.postId);
  emitChange(state, 'page', comment.pageId, 'feed', {
    from: { id: comment.fromId, name: comment.fromName },
    post: post ? { status_type: 'mobile_status_update', is_published: isPublished(state, post), updated_time: graphTime(post.updatedAt), permalink_url: `https://www.facebook.com/${post.id}`, id: post.id } : undefined,
    message: comment.message,
    post_id: comment.postId,
    comment_id: comment.id,
    created_time: Math.floor(comment.createdAt / 1000),
    item: 'comment',
    parent_id: comment.parentId ?? comment.postId,
    verb,
  });
}

/** POST /{object}/comments as the Page. */
export function pageComments(ctx: RouteContext, input: GraphInput, post: FbPost, parent: FbComment | null): { id: string } {
  const message = str(input, 'message') ?? '';
  const attachmentUrl = str(input, 'attachment_url') ?? null;
  if (!message && !attachmentUrl) throw invalidParameter('(#100) Missing message or attachment');
  if ([...message].length > 8000) throw invalidParameter('(#100) Param message must be at most 8000 characters long.');
  const page = ctx.state.people.pages.get(post.pageId);
  return { id: storeComment(ctx.state, post, parent, { id: post.pageId, name: page?.name ?? '' }, message, attachmentUrl).id };
}

/** A person comments on a post, or replies to a comment (`objectId` is either). */
export function personCommentsOnPost(state: SandboxState, input: { objectId: string; message: string; from?: PersonInput | undefined }): FbComment {
  const parent = state.meta.fbComments.get(input.objectId) ?? null;
  const post = state.meta.fbPosts.get(parent ? parent.postId : input.objectId);
  if (!post || !isPublished(state, post)) throw new Error(`no published post or comment ${input.objectId}`);
  if (!input.message || [...input.message].length > MESSAGE_LIMIT) throw new Error('message: required');
  const person = personFor(state, post.pageId, input.from);
  return storeComment(state, post, parent, { id: person.id, name: person.name }, input.message, null);
}

/** A person reacts to a post (like, love, haha, wow, sad, angry, care). */
export function personReactsToPost(state: SandboxState, input: { postId: string; reaction?: string | undefined; from?: PersonInput | undefined }): FbPost {
  const post = state.meta.fbPosts.get(input.postId);
  if (!post) throw new Error(`no post ${input.postId}`);
  const type = (input.reaction ?? 'like').toLowerCase();
  const person = personFor(state, post.pageId, input.from);
  const verb = post.reactions.some((r) => r.personId === person.id) ? 'edited' : 'add';
  post.reactions = [...post.reactions.filter((r) => r.personId !== person.id), { personId: person.id, type }];
  emitChange(state, 'page', post.pageId, 'feed', {
    from: { id: person.id, name: person.name },
    post_id: post.id,
    created_time: Math.floor(state.clock.now() / 1000),
    item: 'reaction',
    parent_id: post.id,
    reaction_type: type,
    verb,
  });
  return post;
}
