// instagram's platformSpecificData (contract table "instagram"; platforms.md §2.3). Both
// spellings of the type are accepted (mediaType IMAGE … or contentType feed …) and normalised
// to one `kind`: IMAGE, REELS (videos publish as Reels), STORIES or CAROUSEL.
import { extensionOf, Fields, hashtagCount, length, looksLikeVideo, type TargetInput, type TargetResult } from './common.ts';

export const INSTAGRAM_KEYS = [
  'mediaUrl', 'mediaUrls', 'mediaType', 'contentType', 'firstComment', 'collaborators', 'userTags', 'locationId',
  'altText', 'altTexts', 'shareToFeed', 'thumbOffset', 'coverUrl', 'audioName', 'trialParams', 'commentsEnabled',
] as const;
const TYPES = ['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL', 'feed', 'reel', 'story', 'carousel'] as const;
type Kind = 'IMAGE' | 'REELS' | 'STORIES' | 'CAROUSEL';
const NOT_JPEG = new Set(['png', 'gif', 'webp', 'heic', 'bmp', 'tif', 'tiff']);

function kindOf(type: (typeof TYPES)[number], urls: string[]): Kind {
  switch (type) {
    case 'IMAGE':
      return 'IMAGE';
    case 'VIDEO':
    case 'REELS':
    case 'reel':
      return 'REELS';
    case 'STORIES':
    case 'story':
      return 'STORIES';
    case 'CAROUSEL':
    case 'carousel':
      return 'CAROUSEL';
    case 'feed':
      return urls.length > 1 ? 'CAROUSEL' : looksLikeVideo(urls[0] ?? '') ? 'REELS' : 'IMAGE';
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

export function validateInstagram(input: TargetInput): TargetResult {
  const f: Fields = new Fields(input);
  const urls = f.mediaUrls(1, 10);
  const mediaType = f.oneOf('mediaType', TYPES);
  const contentType = f.oneOf('contentType', TYPES);
  const kinds = [mediaType, contentType].filter((t) => t !== undefined).map((t) => kindOf(t, urls));
  if (kinds.length === 2 && kinds[0] !== kinds[1]) f.fail('contentType', `disagrees with mediaType (${mediaType ?? ''})`);
  const kind: Kind = kinds[0] ?? (urls.length > 1 ? 'CAROUSEL' : looksLikeVideo(urls[0] ?? '') ? 'REELS' : 'IMAGE');
  const typeKey = mediaType !== undefined ? 'mediaType' : 'contentType';

  if (kind === 'CAROUSEL' && urls.length && (urls.length < 2 || urls.length > 10)) f.fail('mediaUrls', 'a carousel has 2 to 10 items');
  if (kind !== 'CAROUSEL' && urls.length > 1) f.fail('mediaUrls', `${kind} posts take one item; a carousel takes 2 to 10`);
  if (kind === 'REELS' && urls[0] && !looksLikeVideo(urls[0]) && extensionOf(urls[0]) !== null) f.fail(typeKey, 'Reels need a video');
  urls.forEach((url, i) => {
    if (NOT_JPEG.has(extensionOf(url) ?? '')) f.fail(f.has('mediaUrl') ? 'mediaUrl' : `mediaUrls[${i}]`, 'instagram images must be JPEG');
  });
  if (input.live && urls.length === 0) f.fail('mediaUrl', 'required: instagram posts need an image or a video');
  if (input.live && kind === 'CAROUSEL' && urls.length < 2) f.fail('mediaUrls', 'a carousel has 2 to 10 items');

  const story = kind === 'STORIES';
  if (story) {
    if (input.content) f.warnings.push({ key: 'content', message: 'stories have no caption; the content is not sent to instagram' });
  } else {
    if (length(input.content) > 2200) f.failTarget('content', 'an instagram caption has at most 2200 characters');
    if (hashtagCount(input.content) > 30) f.failTarget('content', 'an instagram caption has at most 30 hashtags');
  }
  const storySkip = (key: string) => {
    if (story && f.has(key)) {
      f.skip(key, 'not used on stories; skipped');
      return true;
    }
    return false;
  };
  if (!storySkip('firstComment')) f.keep('firstComment', f.string('firstComment', { min: 1, max: 2200 }));
  if (!storySkip('collaborators')) f.keep('collaborators', collaborators(f));
  if (!storySkip('locationId')) {
    const location = f.string('locationId', { min: 1, max: 64 });
    if (location !== undefined && !/^\d+$/.test(location)) f.fail('locationId', 'must be a location page id (digits)');
    f.keep('locationId', location);
  }
  f.keep('userTags', userTags(f, urls, kind));
  altTexts(f, urls, kind);
  reelsOptions(f, kind);
  f.keep('commentsEnabled', f.boolean('commentsEnabled'));
  f.keep('kind', kind);
  if (urls.length) f.keep('mediaUrls', urls);
  return f.result();
}

function collaborators(f: Fields): string[] | undefined {
  if (!f.has('collaborators')) return undefined;
  const value = f.raw('collaborators');
  if (!Array.isArray(value)) f.fail('collaborators', 'must be an array of usernames');
  if (value.length > 3) f.fail('collaborators', 'at most 3 usernames');
  return value.map((name: unknown, i) => {
    if (typeof name !== 'string' || !/^[A-Za-z0-9._]{1,30}$/.test(name)) f.fail(`collaborators[${i}]`, 'must be an instagram username');
    return name;
  });
}

function userTags(f: Fields, urls: string[], kind: Kind): unknown[] | undefined {
  if (!f.has('userTags')) return undefined;
  const value = f.raw('userTags');
  if (!Array.isArray(value)) f.fail('userTags', 'must be an array of {username, x, y, mediaIndex?}');
  return value.map((tag: unknown, i) => {
    const at = `userTags[${i}]`;
    if (!tag || typeof tag !== 'object' || Array.isArray(tag)) f.fail(at, 'must be an object');
    const t = tag as Record<string, unknown>;
    if (typeof t.username !== 'string' || !/^[A-Za-z0-9._]{1,30}$/.test(t.username)) f.fail(`${at}.username`, t.username === undefined ? 'required' : 'must be an instagram username');
    if (t.mediaIndex !== undefined && (typeof t.mediaIndex !== 'number' || !Number.isInteger(t.mediaIndex) || t.mediaIndex < 0 || (urls.length > 0 && t.mediaIndex >= urls.length))) {
      f.fail(`${at}.mediaIndex`, `must be an item index from 0 to ${Math.max(0, urls.length - 1)}`);
    }
    const index = typeof t.mediaIndex === 'number' ? t.mediaIndex : 0;
    const video = kind === 'REELS' || looksLikeVideo(urls[index] ?? '');
    for (const axis of ['x', 'y'] as const) {
      const v = t[axis];
      if (v === undefined && !video) f.fail(`${at}.${axis}`, 'required for photos');
      if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 1)) f.fail(`${at}.${axis}`, 'must be a number from 0 to 1');
    }
    return { username: t.username, ...(video ? {} : { x: t.x, y: t.y }), ...(t.mediaIndex !== undefined ? { mediaIndex: t.mediaIndex } : {}) };
  });
}

function altTexts(f: Fields, urls: string[], kind: Kind): void {
  if (f.has('altText') && f.has('altTexts')) f.fail('altTexts', 'give altText or altTexts, not both');
  const imageOnly = kind === 'IMAGE' || (kind === 'STORIES' && !looksLikeVideo(urls[0] ?? ''));
  if (f.has('altText')) {
    if (!imageOnly) f.skip('altText', kind === 'CAROUSEL' ? 'use altTexts (one per item) on carousels; skipped' : 'images only; skipped');
    else f.keep('altText', f.string('altText', { max: 1000 }));
  }
  if (!f.has('altTexts')) return;
  if (kind !== 'CAROUSEL') {
    f.skip('altTexts', 'carousels only (use altText); skipped');
    return;
  }
  const value = f.raw('altTexts');
  if (!Array.isArray(value)) f.fail('altTexts', 'must be an array of strings');
  if (urls.length && value.length !== urls.length) f.fail('altTexts', `must give one per carousel item (${urls.length})`);
  f.keep(
    'altTexts',
    value.map((text: unknown, i) => {
      if (text !== null && typeof text !== 'string') f.fail(`altTexts[${i}]`, 'must be a string or null');
      if (typeof text === 'string' && length(text) > 1000) f.fail(`altTexts[${i}]`, 'must have at most 1000 characters');
      return text;
    }),
  );
}

function reelsOptions(f: Fields, kind: Kind): void {
  const keys = ['shareToFeed', 'thumbOffset', 'coverUrl', 'audioName', 'trialParams'];
  if (kind !== 'REELS') {
    for (const key of keys) f.skip(key, 'Reels only; skipped');
    return;
  }
  f.keep('shareToFeed', f.boolean('shareToFeed'));
  f.keep('thumbOffset', f.integer('thumbOffset'));
  f.keep('coverUrl', f.url('coverUrl'));
  f.keep('audioName', f.string('audioName', { min: 1, max: 100 }));
  if (f.has('trialParams')) {
    const value = f.raw('trialParams');
    const strategy = value && typeof value === 'object' ? (value as Record<string, unknown>).graduationStrategy : undefined;
    if (strategy !== 'MANUAL' && strategy !== 'SS_PERFORMANCE') f.fail('trialParams.graduationStrategy', 'must be one of MANUAL, SS_PERFORMANCE');
    f.keep('trialParams', { graduationStrategy: strategy });
  }
}
