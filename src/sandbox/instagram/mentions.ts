// Mentions and tags (platforms.md §2.7): `/{ig-user-id}/tags` (media where people photo-tagged
// the account), the `mentioned_media.media_id(…){…}` and `mentioned_comment.comment_id(…){…}`
// fields of the account node, and POST `/{ig-user-id}/mentions` to answer a mention with a
// comment. People mention or tag the account through the control API (media they own, made by
// the sandbox), which sends the `mentions` webhook for caption and comment mentions (§8.4).
import type { InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import type { FieldSpec } from '../meta/fields.ts';
import { emitChange } from '../meta/events.ts';
import { invalidParameter } from '../meta/graph-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { personFor, type PersonInput } from '../messaging/persons.ts';
import { addOwnComment, commentFields, storeIgComment } from './comments.ts';
import { igMediaFields } from './media.ts';
import type { IgMedia } from './store.ts';

const spec = (children: FieldSpec[] | null) => (children ? { fields: children.map(flatten).join(',') } : null);
const flatten = (f: FieldSpec): string => (f.children ? `${f.name}{${f.children.map(flatten).join(',')}}` : f.name);

/** `mentioned_media` and `mentioned_comment` take the id as a field modifier. */
export function mentionedField(state: SandboxState, account: InstagramAccount, field: FieldSpec): unknown {
  if (field.name === 'mentioned_media') {
    const id = field.modifiers.media_id;
    const mention = state.meta.igMentions.find((m) => m.accountId === account.id && m.mediaId === id && m.commentId === null);
    const media = mention ? state.meta.igMedia.get(mention.mediaId) : undefined;
    if (!media) throw invalidParameter(`(#100) Param media_id must be a media where the account is mentioned`);
    return igMediaFields(state, media, spec(field.children), ['id', 'caption']);
  }
  const id = field.modifiers.comment_id;
  const mention = state.meta.igMentions.find((m) => m.accountId === account.id && m.commentId === id);
  const comment = mention?.commentId ? state.meta.igComments.get(mention.commentId) : undefined;
  if (!comment) throw invalidParameter(`(#100) Param comment_id must be a comment where the account is mentioned`);
  return commentFields(state, comment, spec(field.children));
}

export function taggedMedia(state: SandboxState, account: InstagramAccount): IgMedia[] {
  return [...state.meta.igMedia.values()].filter((m) => m.accountId !== account.id && m.userTags.some((t) => t.username === account.username)).sort((a, b) => b.publishedAt - a.publishedAt);
}

/** POST /{ig-user-id}/mentions?media_id=&comment_id=&message=: a comment on the mentioning media. */
export function replyToMention(ctx: RouteContext, input: GraphInput, account: InstagramAccount): { id: string } {
  const mediaId = str(input, 'media_id');
  const commentId = str(input, 'comment_id') ?? null;
  const mention = ctx.state.meta.igMentions.find((m) => m.accountId === account.id && m.mediaId === mediaId && (commentId === null || m.commentId === commentId));
  const media = mediaId ? ctx.state.meta.igMedia.get(mediaId) : undefined;
  if (!mention || !media) throw invalidParameter('(#100) Param media_id must be a media where the account is mentioned');
  const parent = commentId ? (ctx.state.meta.igComments.get(commentId) ?? null) : null;
  return addOwnComment(ctx, input, account, media, parent);
}

export interface MentionInput {
  accountId: string;
  /** caption: a new post of the person mentions the account; comment: a comment does; tag: a photo tag. */
  kind: 'caption' | 'comment' | 'tag';
  from?: PersonInput | undefined;
  text?: string | undefined;
  mediaUrl?: string | undefined;
}

export function personMentions(state: SandboxState, input: MentionInput): { mediaId: string; commentId: string | null } {
  const account = state.people.instagramAccounts.get(input.accountId);
  if (!account) throw new Error(`no Instagram account ${input.accountId}`);
  const person = personFor(state, account.id, input.from);
  const text = input.text ?? `Look at this @${account.username}`;
  const media: IgMedia = {
    id: state.ids.numeric('ig-media', '18', 17),
    accountId: person.id,
    username: person.username,
    containerId: null,
    mediaType: 'IMAGE',
    productType: 'FEED',
    caption: input.kind === 'caption' ? text : null,
    mediaUrl: input.mediaUrl ?? 'https://sandbox.invalid/media/mention.jpg',
    thumbnailUrl: null,
    childIds: [],
    isCarouselChild: false,
    publishedAt: state.clock.now(),
    shortcode: state.ids.opaque('ig-shortcode', 11),
    commentEnabled: true,
    userTags: input.kind === 'tag' ? [{ username: account.username, x: 0.5, y: 0.5 }] : [],
    collaborators: [],
    altText: null,
    locationId: null,
    likeCount: 3,
  };
  state.meta.igMedia.set(media.id, media);
  if (input.kind === 'tag') return { mediaId: media.id, commentId: null };
  const comment = input.kind === 'comment' ? storeIgComment(state, { mediaId: media.id, parentId: null, text, fromId: person.id, fromUsername: person.username }) : null;
  state.meta.igMentions.push({ accountId: account.id, mediaId: media.id, commentId: comment?.id ?? null });
  emitChange(state, 'instagram', account.id, 'mentions', comment ? { media_id: media.id, comment_id: comment.id } : { media_id: media.id });
  return { mediaId: media.id, commentId: comment?.id ?? null };
}
