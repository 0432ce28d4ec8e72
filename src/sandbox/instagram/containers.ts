// POST /{ig-user-id}/media (platforms.md §2.3, §12): validates a container and stores it. Images
// are fetched for real at creation and refused there as the platform refuses them (JPEG only,
// 8 MiB; 9004/2207052 for a URL that gives no media); videos are fetched in the background and
// a failure shows as status_code ERROR with the §2.4 subcode in `status`.
import type { InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { fetchMedia, type FetchedMedia } from '../media/fetch.ts';
import { invalidParameter } from '../meta/graph-error.ts';
import { bool, list, str, type GraphInput } from '../meta/params.ts';
import { isHttpUrl } from '../oauth/consent.ts';
import { checkCaption, parseCollaborators, parseUserTags } from './caption.ts';
import { igError } from './errors.ts';
import type { IgContainer, IgContainerType } from './store.ts';

const TYPES: readonly IgContainerType[] = ['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL'];
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;

const only = (ok: boolean, param: string, where: string) => {
  if (!ok) throw invalidParameter(`(#100) Param ${param} is only supported for ${where}.`);
};

export async function createIgContainer(ctx: RouteContext, input: GraphInput, account: InstagramAccount): Promise<{ id: string }> {
  const isItem = bool(input, 'is_carousel_item') ?? false;
  const mediaType = (str(input, 'media_type')?.toUpperCase() ?? 'IMAGE') as IgContainerType;
  if (!TYPES.includes(mediaType)) throw igError(2207023, `media_type must be one of REELS, STORIES, CAROUSEL (or VIDEO for carousel items).`);
  // VIDEO is refused for single feed posts (use REELS) but is how a carousel video item is made (§12).
  if (mediaType === 'VIDEO' && !isItem) throw igError(2207023, 'The VIDEO media type is no longer supported for feed posts; use REELS.');
  if (isItem && mediaType !== 'IMAGE' && mediaType !== 'VIDEO') throw invalidParameter('(#100) Only IMAGE and VIDEO containers can be carousel items.');
  const imageUrl = str(input, 'image_url') ?? null;
  const videoUrl = str(input, 'video_url') ?? null;
  const kind: IgContainer['kind'] =
    mediaType === 'CAROUSEL' ? 'carousel' : mediaType === 'REELS' || mediaType === 'VIDEO' ? 'video' : mediaType === 'STORIES' && videoUrl ? 'video' : 'image';
  if (kind === 'image' && !imageUrl) throw invalidParameter('(#100) The parameter image_url is required.');
  if (kind === 'video' && !videoUrl) throw invalidParameter('(#100) The parameter video_url is required.');
  for (const url of [imageUrl, videoUrl, str(input, 'cover_url')]) if (url && !isHttpUrl(url)) throw igError(2207052, `The media could not be fetched from this URI: ${url}`);

  const caption = str(input, 'caption') ?? null;
  if (caption !== null) {
    only(!isItem && mediaType !== 'STORIES', 'caption', 'feed images, reels and carousel containers');
    checkCaption(caption);
  }
  const userTags = parseUserTags(input, kind === 'image');
  const collaborators = parseCollaborators(input);
  if (collaborators.length) only(!isItem && mediaType !== 'STORIES', 'collaborators', 'feed images, reels and carousels');
  const locationId = str(input, 'location_id') ?? null;
  if (locationId !== null) {
    only(!isItem && mediaType !== 'STORIES', 'location_id', 'feed images, reels and carousel containers');
    if (!/^\d+$/.test(locationId)) throw invalidParameter('(#100) INSTAGRAM_PLATFORM_API__INVALID_LOCATION_ID');
  }
  const altText = str(input, 'alt_text') ?? null;
  if (altText !== null) only(mediaType === 'IMAGE', 'alt_text', 'image posts');
  const reels = mediaType === 'REELS';
  const shareToFeed = bool(input, 'share_to_feed') ?? null;
  if (shareToFeed !== null) only(reels, 'share_to_feed', 'REELS');
  const thumbOffset = str(input, 'thumb_offset') === undefined ? null : Number(str(input, 'thumb_offset'));
  if (thumbOffset !== null) {
    only(kind === 'video', 'thumb_offset', 'videos');
    if (!Number.isInteger(thumbOffset) || thumbOffset < 0) throw igError(2207057);
  }
  const coverUrl = str(input, 'cover_url') ?? null;
  if (coverUrl !== null) only(reels, 'cover_url', 'REELS');
  const audioName = str(input, 'audio_name') ?? null;
  if (audioName !== null) only(reels, 'audio_name', 'REELS');
  const trialParams = parseTrialParams(input);
  if (trialParams) only(reels, 'trial_params', 'REELS');
  const children = mediaType === 'CAROUSEL' ? carouselChildren(ctx.state, input, account) : [];

  // Images: the platform downloads them inside this request and refuses bad ones at once.
  if (kind === 'image' && imageUrl) checkImage(await ctx.state.track(fetchMedia(imageUrl, ctx.state.settings.media)), imageUrl);

  const now = ctx.state.clock.now();
  const processing = ctx.state.settings.processing;
  const container: IgContainer = {
    id: ctx.state.ids.numeric('ig-container', '17', 17),
    accountId: account.id,
    mediaType,
    kind,
    caption,
    imageUrl,
    videoUrl,
    isCarouselItem: isItem,
    children,
    userTags,
    collaborators,
    locationId,
    altText,
    shareToFeed,
    thumbOffset,
    coverUrl,
    audioName,
    trialParams,
    createdAt: now,
    readyAt: now + (kind === 'video' ? processing.instagramVideoMs : processing.instagramImageMs),
    download: kind === 'image' ? 'ok' : 'none',
    errorSubcode: null,
    publishedId: null,
  };
  ctx.state.meta.igContainers.set(container.id, container);
  if (kind === 'video' && videoUrl) void ctx.state.track(downloadVideo(ctx.state, container, videoUrl));
  return { id: container.id };
}

/** 9004/2207052 for no media, -2/2207003 on timeout, 36001/2207005 for non-JPEG, 36000/2207004 over 8 MiB. */
function checkImage(result: FetchedMedia, url: string): void {
  if (!result.ok) throw igError(result.reason === 'timeout' ? 2207003 : 2207052, `The media could not be fetched from this URI: ${url}`);
  if (result.type?.kind !== 'image') throw igError(2207052, `The media could not be fetched from this URI: ${url}`);
  if (result.type.mime !== 'image/jpeg') throw igError(2207005, 'Only JPEG images are supported.');
  if (result.size > IMAGE_MAX_BYTES) throw igError(2207004, 'The image must be 8 MB or smaller.');
}

async function downloadVideo(state: SandboxState, container: IgContainer, url: string): Promise<void> {
  container.download = 'pending';
  const result = await fetchMedia(url, state.settings.media);
  let subcode: number | null = null;
  if (!result.ok) subcode = result.reason === 'timeout' ? 2207003 : 2207052;
  else if (result.type?.mime !== 'video/mp4' && result.type?.mime !== 'video/quicktime') subcode = 2207026;
  container.download = subcode ? 'failed' : 'ok';
  container.errorSubcode = subcode;
}

function carouselChildren(state: SandboxState, input: GraphInput, account: InstagramAccount): string[] {
  const children = list(input, 'children') ?? [];
  if (children.length < 2 || children.length > 10) throw igError(2207028, `A carousel takes 2 to 10 items; ${children.length} given.`);
  for (const id of children) {
    const child = state.meta.igContainers.get(id);
    if (!child || child.accountId !== account.id || !child.isCarouselItem || child.publishedId) {
      throw invalidParameter(`(#100) Param children: ${id} is not a carousel item container of this account.`);
    }
  }
  return children;
}

function parseTrialParams(input: GraphInput): Record<string, unknown> | null {
  const raw = input.trial_params;
  if (raw === undefined || raw === '') return null;
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = null;
    }
  }
  const value = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  if (!value || (value.graduation_strategy !== 'MANUAL' && value.graduation_strategy !== 'SS_PERFORMANCE')) {
    throw invalidParameter('(#100) Param trial_params must be {"graduation_strategy":"MANUAL"|"SS_PERFORMANCE"}.');
  }
  return value;
}
