// The parameters of `POST /{ig-user-id}/media` (platforms.md §2.3, §12) for one target, from its
// validated options (validate.ts): one container for an image, a Reel
// or a story; for a carousel, one item container per media URL (video items are
// media_type=VIDEO with is_carousel_item) and the parent. Each parameter goes only where the
// platform takes it: caption, collaborators and location on the post, never on carousel items
// or stories; alt_text on images; thumb_offset on videos; the other Reels options on Reels.
import { strings } from '../json.ts';

export type IgKind = 'IMAGE' | 'REELS' | 'STORIES' | 'CAROUSEL';
export type Form = Record<string, string | undefined>;

interface UserTag {
  username: string;
  x?: number;
  y?: number;
  mediaIndex?: number;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const json = (value: unknown): string | undefined => (value === undefined ? undefined : JSON.stringify(value));

/** Video by the type read from the file's bytes when the media check gave it, else by its extension. */
export function isVideoItem(url: string, index: number, mediaKinds: unknown): boolean {
  const kinds: unknown[] = Array.isArray(mediaKinds) ? mediaKinds : [];
  const known = kinds[index];
  if (known === 'video' || known === 'image') return known === 'video';
  try {
    return /\.(mp4|mov|m4v)$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

export function kindOf(options: Record<string, unknown>): IgKind {
  const kind = options.kind;
  return kind === 'REELS' || kind === 'STORIES' || kind === 'CAROUSEL' ? kind : 'IMAGE';
}

/** The user tags of item `index`: photos carry x and y, videos only the username. */
function tagsFor(options: Record<string, unknown>, index: number, video: boolean): string | undefined {
  const tags = (Array.isArray(options.userTags) ? (options.userTags as UserTag[]) : []).filter((t) => (t.mediaIndex ?? 0) === index);
  if (!tags.length) return undefined;
  return json(tags.map((t) => (video ? { username: t.username } : { username: t.username, x: t.x, y: t.y })));
}

/** Caption, collaborators and location: on the post itself (not stories, not carousel items). */
function postParams(content: string, options: Record<string, unknown>): Form {
  const collaborators = strings(options.collaborators);
  return { caption: content || undefined, collaborators: collaborators.length ? json(collaborators) : undefined, location_id: str(options.locationId) };
}

/** The single container of an image, a Reel or a story. */
export function singleParams(content: string, options: Record<string, unknown>, mediaKinds: unknown): Form {
  const url = strings(options.mediaUrls)[0] ?? '';
  const kind = kindOf(options);
  if (kind === 'STORIES') {
    const video = isVideoItem(url, 0, mediaKinds);
    return { media_type: 'STORIES', ...(video ? { video_url: url } : { image_url: url }), user_tags: tagsFor(options, 0, video) };
  }
  if (kind === 'REELS') {
    const trial = options.trialParams as { graduationStrategy?: unknown } | undefined;
    return {
      media_type: 'REELS',
      video_url: url,
      ...postParams(content, options),
      user_tags: tagsFor(options, 0, true),
      share_to_feed: typeof options.shareToFeed === 'boolean' ? String(options.shareToFeed) : undefined,
      thumb_offset: typeof options.thumbOffset === 'number' ? String(options.thumbOffset) : undefined,
      cover_url: str(options.coverUrl),
      audio_name: str(options.audioName),
      trial_params: trial ? json({ graduation_strategy: trial.graduationStrategy }) : undefined,
    };
  }
  return { image_url: url, ...postParams(content, options), alt_text: str(options.altText), user_tags: tagsFor(options, 0, false) };
}

/** Item `index` of a carousel. */
export function itemParams(options: Record<string, unknown>, index: number, mediaKinds: unknown): Form {
  const url = strings(options.mediaUrls)[index] ?? '';
  const video = isVideoItem(url, index, mediaKinds);
  const altTexts = Array.isArray(options.altTexts) ? (options.altTexts as unknown[]) : [];
  return video
    ? { media_type: 'VIDEO', video_url: url, is_carousel_item: 'true', user_tags: tagsFor(options, index, true) }
    : { image_url: url, is_carousel_item: 'true', alt_text: str(altTexts[index]), user_tags: tagsFor(options, index, false) };
}

export function carouselParams(content: string, options: Record<string, unknown>, children: string[]): Form {
  return { media_type: 'CAROUSEL', children: children.join(','), ...postParams(content, options) };
}
