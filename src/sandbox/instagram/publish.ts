// Container status (platforms.md §2.3): computed from the download's outcome and the sandbox
// clock, IN_PROGRESS until processing is over, then FINISHED or ERROR (`status` carries the
// subcode, "Error: Media upload has failed with error code 2207026" as clients report it),
// PUBLISHED once used, EXPIRED after 24 h. media_publish turns a FINISHED container into media,
// counted against the rolling 24-hour quota that content_publishing_limit reports (§2.3).
import type { InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { invalidParameter } from '../meta/graph-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { usageIn } from '../meta/store.ts';
import { IG_ERRORS, igError } from './errors.ts';
import type { IgContainer, IgMedia } from './store.ts';

const DAY_MS = 86_400_000;
export type IgStatusCode = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

export function igContainerStatus(state: SandboxState, container: IgContainer): { code: IgStatusCode; subcode: number | null } {
  if (container.publishedId) return { code: 'PUBLISHED', subcode: null };
  const now = state.clock.now();
  if (now - container.createdAt > DAY_MS) return { code: 'EXPIRED', subcode: null };
  if (container.download === 'failed') return { code: 'ERROR', subcode: container.errorSubcode };
  let inProgress = container.download === 'pending' || now < container.readyAt;
  for (const id of container.children) {
    const child = state.meta.igContainers.get(id);
    const status = child ? igContainerStatus(state, child) : null;
    if (status?.code === 'ERROR') return status;
    if (status?.code === 'IN_PROGRESS') inProgress = true;
  }
  return { code: inProgress ? 'IN_PROGRESS' : 'FINISHED', subcode: null };
}

export function statusText(code: IgStatusCode, subcode: number | null): string {
  switch (code) {
    case 'IN_PROGRESS':
      return 'In Progress: Media is still being processed.';
    case 'FINISHED':
      return 'Finished: Media has been uploaded and it is ready to be published.';
    case 'PUBLISHED':
      return 'Published: Media has been successfully published.';
    case 'ERROR':
      return `Error: Media upload has failed with error code ${subcode ?? 2207001}`;
    case 'EXPIRED':
      return 'Expired: Media was not published within 24 hours.';
    default:
      return code satisfies never;
  }
}

export function publishIgContainer(ctx: RouteContext, input: GraphInput, account: InstagramAccount): { id: string } {
  const creationId = str(input, 'creation_id');
  if (!creationId) throw invalidParameter('(#100) The parameter creation_id is required.');
  const state = ctx.state;
  const container = state.meta.igContainers.get(creationId);
  if (!container || container.accountId !== account.id) throw igError(2207006);
  if (container.isCarouselItem) throw invalidParameter('(#100) A carousel item cannot be published on its own; publish its CAROUSEL container.');
  const { code, subcode } = igContainerStatus(state, container);
  switch (code) {
    case 'PUBLISHED':
      throw invalidParameter('(#100) This media container has already been published.');
    case 'EXPIRED':
      throw igError(2207008);
    case 'ERROR':
      throw igError(subcode && IG_ERRORS[subcode] ? subcode : 2207001);
    case 'IN_PROGRESS':
      throw igError(2207027, 'The media is not ready for publishing, please wait for a moment');
    case 'FINISHED':
      break;
    default:
      return code satisfies never;
  }
  const now = state.clock.now();
  if (usageIn(state.meta.igPublishes, account.id, now) >= state.settings.limits.instagramPosts) throw igError(2207042);
  const media = toMedia(state, container, account, now, false);
  state.meta.igPublishes.push({ accountId: account.id, at: now });
  if (media.productType !== 'STORY') account.mediaCount++;
  return { id: media.id };
}

function toMedia(state: SandboxState, container: IgContainer, account: InstagramAccount, now: number, isChild: boolean): IgMedia {
  const childIds = container.children.flatMap((id) => {
    const child = state.meta.igContainers.get(id);
    return child ? [toMedia(state, child, account, now, true).id] : [];
  });
  const video = container.kind === 'video';
  const media: IgMedia = {
    id: state.ids.numeric('ig-media', '18', 17),
    accountId: account.id,
    username: account.username,
    containerId: container.id,
    mediaType: container.kind === 'carousel' ? 'CAROUSEL_ALBUM' : video ? 'VIDEO' : 'IMAGE',
    productType: container.mediaType === 'STORIES' ? 'STORY' : container.mediaType === 'REELS' ? 'REELS' : 'FEED',
    caption: container.caption,
    mediaUrl: container.imageUrl ?? container.videoUrl,
    thumbnailUrl: video ? (container.coverUrl ?? `https://sandbox.invalid/thumbnails/${container.id}.jpg`) : null,
    childIds,
    isCarouselChild: isChild,
    publishedAt: now,
    shortcode: state.ids.opaque('ig-shortcode', 11),
    commentEnabled: true,
    userTags: container.userTags,
    collaborators: container.collaborators,
    altText: container.altText,
    locationId: container.locationId,
    likeCount: 0,
  };
  container.publishedId = media.id;
  state.meta.igMedia.set(media.id, media);
  return media;
}

/** GET /{ig-user-id}/content_publishing_limit?fields=quota_usage,config[&since=unix]. */
export function publishingLimit(ctx: RouteContext, input: GraphInput, account: InstagramAccount): unknown {
  const now = ctx.state.clock.now();
  const since = Number(str(input, 'since') ?? NaN);
  const windowMs = Number.isFinite(since) ? Math.min(DAY_MS, Math.max(0, now - since * 1000)) : DAY_MS;
  const getters = {
    quota_usage: () => usageIn(ctx.state.meta.igPublishes, account.id, now, windowMs),
    config: () => ({ quota_total: ctx.state.settings.limits.instagramPosts, quota_duration: 86_400 }),
  };
  return { data: [selectFields('ContentPublishingLimit', getters, parseFields(str(input, 'fields')), ['quota_usage'])] };
}
