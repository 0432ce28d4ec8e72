// Instagram containers and media as Graph nodes (platforms.md §2.3, §2.5): the container's
// status fields; published media fields, `comment_enabled` toggling (the only update the API
// allows: captions cannot be edited, media cannot be deleted), `children`, `comments`, `insights`.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { invalidParameter, unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { bool, str, type GraphInput } from '../meta/params.ts';
import { graphTime } from '../meta/store.ts';
import { igAccess, type IgAction } from './access.ts';
import { addOwnComment, commentFields, mediaComments } from './comments.ts';
import { mediaInsights } from './insights.ts';
import { igContainerStatus, statusText } from './publish.ts';
import type { IgContainer, IgMedia } from './store.ts';

/** The account a media belongs to, checked against the token; other people's media are not readable directly. */
export function ownMedia(ctx: RouteContext, input: GraphInput, media: IgMedia, action: IgAction) {
  const account = ctx.state.people.instagramAccounts.get(media.accountId);
  if (!account) throw unsupportedRequest(ctx.method, media.id);
  return { account, token: igAccess(ctx, input, account, action) };
}

export const igContainerNode = defineNode<IgContainer>({
  type: 'ShadowIGMediaBuilder',
  find: (state, id) => state.meta.igContainers.get(id),
  get({ ctx, input, node }) {
    const account = ctx.state.people.instagramAccounts.get(node.accountId);
    if (!account) throw unsupportedRequest('GET', node.id);
    igAccess(ctx, input, account, 'basic');
    const { code, subcode } = igContainerStatus(ctx.state, node);
    const copyright = node.kind !== 'video' ? undefined : { status: code === 'IN_PROGRESS' ? 'in_progress' : 'completed', matches_found: false };
    return selectFields(
      'ShadowIGMediaBuilder',
      { id: () => node.id, status_code: () => code, status: () => statusText(code, subcode), copyright_check_status: () => copyright },
      parseFields(str(input, 'fields')),
      ['id'],
    );
  },
});

export function igMediaFields(state: SandboxState, media: IgMedia, input: GraphInput | null, defaults = ['id']) {
  const comments = () => [...state.meta.igComments.values()].filter((c) => c.mediaId === media.id);
  const permalinkKind = media.productType === 'REELS' ? 'reel' : media.productType === 'STORY' ? 'stories' : 'p';
  return selectFields(
    'IGMedia',
    {
      id: () => media.id,
      caption: () => media.caption ?? undefined,
      media_type: () => media.mediaType,
      media_product_type: () => media.productType,
      media_url: () => media.mediaUrl ?? undefined,
      thumbnail_url: () => media.thumbnailUrl ?? undefined,
      permalink: () => `https://www.instagram.com/${permalinkKind}/${media.shortcode}/`,
      shortcode: () => media.shortcode,
      timestamp: () => graphTime(media.publishedAt),
      username: () => media.username,
      owner: () => ({ id: media.accountId }),
      like_count: () => media.likeCount,
      comments_count: () => comments().length,
      is_comment_enabled: () => media.commentEnabled,
      is_shared_to_feed: () => (media.productType === 'REELS' ? true : undefined),
      alt_text: () => media.altText ?? undefined,
      children: () => (media.childIds.length ? { data: media.childIds.map((id) => ({ id })) } : undefined),
      comments: () => ({ data: comments().map((c) => commentFields(state, c, null)) }),
      legacy_instagram_media_id: () => media.id,
    },
    input ? parseFields(str(input, 'fields')) : null,
    defaults,
  );
}

export const igMediaNode = defineNode<IgMedia>({
  type: 'IGMedia',
  find: (state, id) => state.meta.igMedia.get(id),
  get({ ctx, input, node }) {
    ownMedia(ctx, input, node, 'basic');
    return igMediaFields(ctx.state, node, input);
  },
  /** POST /{ig-media-id}?comment_enabled=true|false (§2.5). */
  post({ ctx, input, node }) {
    ownMedia(ctx, input, node, 'comments');
    const enabled = bool(input, 'comment_enabled');
    if (enabled === undefined) throw invalidParameter('(#100) The parameter comment_enabled is required.');
    if (node.productType === 'STORY' || node.isCarouselChild) throw invalidParameter('(#100) Comments cannot be toggled on this media.');
    node.commentEnabled = enabled;
    return { success: true };
  },
  edges: {
    children: {
      get({ ctx, input, node }) {
        ownMedia(ctx, input, node, 'basic');
        const rows = node.childIds.flatMap((id) => {
          const child = ctx.state.meta.igMedia.get(id);
          return child ? [igMediaFields(ctx.state, child, input)] : [];
        });
        return { data: rows };
      },
    },
    comments: {
      get({ ctx, input, node }) {
        ownMedia(ctx, input, node, 'comments');
        return pageOf(ctx, input, mediaComments(ctx.state, node.id, null).map((c) => commentFields(ctx.state, c, input)), 50);
      },
      post({ ctx, input, node }) {
        const { account } = ownMedia(ctx, input, node, 'comments');
        return addOwnComment(ctx, input, account, node, null);
      },
    },
    insights: {
      get({ ctx, input, node }) {
        ownMedia(ctx, input, node, 'insights');
        return mediaInsights(ctx, input, node);
      },
    },
  },
});
