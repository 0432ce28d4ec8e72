// Instagram comments (platforms.md §2.6): listed newest first, 50 a page; the account comments on
// its own media and replies to top-level comments (one level: the API refuses a reply to a reply;
// a person's reply to a reply, through the control API, joins the top comment as in the app);
// hide/unhide and delete on its own media. People comment through the control API, which sends
// the `comments` webhook (§2.9, §8.4) and, for an @mention of the account, `mentions`.
import type { InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { invalidParameter, unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { bool, str, type GraphInput } from '../meta/params.ts';
import { graphTime } from '../meta/store.ts';
import { emitChange } from '../meta/events.ts';
import { personFor, type PersonInput } from '../messaging/persons.ts';
import { igAccess } from './access.ts';
import type { IgComment, IgMedia } from './store.ts';

export function mediaComments(state: SandboxState, mediaId: string, parentId: string | null): IgComment[] {
  return [...state.meta.igComments.values()].filter((c) => c.mediaId === mediaId && c.parentId === parentId).sort((a, b) => b.createdAt - a.createdAt);
}

const REPLY_FIELDS: GraphInput = { fields: 'id,text,timestamp,username,from,like_count,hidden,media,parent_id' };

export function commentFields(state: SandboxState, comment: IgComment, input: GraphInput | null): Record<string, unknown> {
  return selectFields(
    'IGComment',
    {
      id: () => comment.id,
      text: () => comment.text,
      timestamp: () => graphTime(comment.createdAt),
      username: () => comment.fromUsername,
      from: () => ({ id: comment.fromId, username: comment.fromUsername }),
      like_count: () => comment.likeCount,
      hidden: () => comment.hidden,
      media: () => ({ id: comment.mediaId }),
      parent_id: () => comment.parentId ?? undefined,
      // Every field of each reply (oldest first); `replies{…}` narrows them (meta/fields.ts).
      replies: () => ({ data: mediaComments(state, comment.mediaId, comment.id).reverse().map((r) => commentFields(state, r, REPLY_FIELDS)) }),
      legacy_instagram_comment_id: () => comment.id,
    },
    input ? parseFields(str(input, 'fields')) : null,
    ['id', 'text', 'timestamp'],
  );
}

export function storeIgComment(state: SandboxState, input: Omit<IgComment, 'id' | 'createdAt' | 'hidden' | 'likeCount'>): IgComment {
  const comment: IgComment = { ...input, id: state.ids.numeric('ig-comment', '17', 17), createdAt: state.clock.now(), hidden: false, likeCount: 0 };
  state.meta.igComments.set(comment.id, comment);
  return comment;
}

/** The account's own comment or reply (POST /{media}/comments, /{comment}/replies, /{user}/mentions). */
export function addOwnComment(ctx: RouteContext, input: GraphInput, account: InstagramAccount, media: IgMedia, parent: IgComment | null): { id: string } {
  const message = str(input, 'message');
  if (!message) throw invalidParameter('(#100) The parameter message is required.');
  if ([...message].length > 2200) throw invalidParameter('(#100) Param message must be at most 2200 characters long.');
  if (!media.commentEnabled) throw invalidParameter('(#100) Comments are disabled on this media.');
  const parentId = parent ? (parent.parentId ?? parent.id) : null;
  return { id: storeIgComment(ctx.state, { mediaId: media.id, parentId, text: message, fromId: account.id, fromUsername: account.username }).id };
}

/** The account that moderates a comment: the owner of the media it is on. */
function moderator(ctx: RouteContext, input: GraphInput, comment: IgComment) {
  const media = ctx.state.meta.igMedia.get(comment.mediaId);
  const account = media ? ctx.state.people.instagramAccounts.get(media.accountId) : undefined;
  if (!media || !account) throw unsupportedRequest(ctx.method, comment.id);
  igAccess(ctx, input, account, 'comments');
  return { media, account };
}

export const igCommentNode = defineNode<IgComment>({
  type: 'IGComment',
  find: (state, id) => state.meta.igComments.get(id),
  get({ ctx, input, node }) {
    moderator(ctx, input, node);
    return commentFields(ctx.state, node, input);
  },
  /** POST /{ig-comment-id}?hide=true|false. */
  post({ ctx, input, node }) {
    moderator(ctx, input, node);
    const hide = bool(input, 'hide');
    if (hide === undefined) throw invalidParameter('(#100) The parameter hide is required.');
    if (node.fromId === ctx.state.meta.igMedia.get(node.mediaId)?.accountId) throw invalidParameter("(#100) The account's own comments cannot be hidden.");
    node.hidden = hide;
    return { success: true };
  },
  delete({ ctx, input, node }) {
    moderator(ctx, input, node);
    for (const reply of mediaComments(ctx.state, node.mediaId, node.id)) ctx.state.meta.igComments.delete(reply.id);
    ctx.state.meta.igComments.delete(node.id);
    return { success: true };
  },
  edges: {
    replies: {
      get({ ctx, input, node }) {
        moderator(ctx, input, node);
        return pageOf(ctx, input, mediaComments(ctx.state, node.mediaId, node.id).map((c) => commentFields(ctx.state, c, input)), 50);
      },
      post({ ctx, input, node }) {
        const { media, account } = moderator(ctx, input, node);
        // One level of replies (§2.6): the API takes replies on top-level comments only.
        if (node.parentId !== null) throw invalidParameter('(#100) Replies can only be made to top-level comments; this comment is itself a reply.');
        return addOwnComment(ctx, input, account, media, node);
      },
    },
  },
});

/** A person comments on (or replies under) the account's media; sends the `comments` webhook. */
export function personCommentsOnMedia(state: SandboxState, input: { mediaId: string; text: string; parentId?: string | undefined; from?: PersonInput | undefined }): IgComment {
  const media = state.meta.igMedia.get(input.mediaId);
  const account = media ? state.people.instagramAccounts.get(media.accountId) : undefined;
  if (!media || !account) throw new Error(`no media ${input.mediaId} of a sandbox Instagram account`);
  if (!media.commentEnabled) throw new Error('comments are disabled on this media');
  const parent = input.parentId ? state.meta.igComments.get(input.parentId) : undefined;
  if (input.parentId && parent?.mediaId !== media.id) throw new Error(`no comment ${input.parentId} on media ${media.id}`);
  const person = personFor(state, account.id, input.from);
  const parentId = parent ? (parent.parentId ?? parent.id) : null;
  const comment = storeIgComment(state, { mediaId: media.id, parentId, text: input.text, fromId: person.id, fromUsername: person.username });
  const value: Record<string, unknown> = {
    from: { id: person.id, username: person.username },
    media: { id: media.id, media_product_type: media.productType },
    id: comment.id,
    text: comment.text,
  };
  if (parentId) value.parent_id = parentId;
  emitChange(state, 'instagram', account.id, 'comments', value);
  return comment;
}
