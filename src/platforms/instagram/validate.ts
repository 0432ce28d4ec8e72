// instagram's platformSpecificData (contract table "instagram"; platforms.md §2.3): the format
// rules of src/platforms/instagram/options.ts, its live-only rules when the post goes live, and
// the rules between keys. Both spellings of the type are accepted (mediaType IMAGE … or
// contentType feed …) and normalised to one `kind`: IMAGE, REELS (videos publish as Reels),
// STORIES or CAROUSEL.
import {
  INSTAGRAM_CAPTION_MAX,
  INSTAGRAM_CAROUSEL,
  INSTAGRAM_HASHTAGS_MAX,
  InstagramData,
  instagramLiveProblem,
  type INSTAGRAM_TYPES,
  type InstagramGraduationStrategy,
  type InstagramKind,
  type InstagramOptions,
  type InstagramUserTag,
} from './options.ts';
import { compact, enumOf, extensionOf, Fields, hashtagCount, itemsOf, length, looksLikeVideo, numberKeyword, patternOf, propertyOf, stringProblem, type TargetInput, type Validated } from '../validate-fields.ts';

type InstagramFields = Fields<(typeof InstagramData)['properties']>;
const NOT_JPEG = new Set(['png', 'gif', 'webp', 'heic', 'bmp', 'tif', 'tiff']);

function kindOf(type: (typeof INSTAGRAM_TYPES)[number], urls: string[]): InstagramKind {
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

export function validateInstagram(input: TargetInput): Validated<InstagramOptions> {
  const f = new Fields(input, InstagramData);
  const urls = f.mediaUrls();
  const mediaType = f.oneOf('mediaType');
  const contentType = f.oneOf('contentType');
  const kinds = [mediaType, contentType].filter((t) => t !== undefined).map((t) => kindOf(t, urls));
  if (kinds.length === 2 && kinds[0] !== kinds[1]) f.fail('contentType', `disagrees with mediaType (${mediaType ?? ''})`);
  const kind: InstagramKind = kinds[0] ?? (urls.length > 1 ? 'CAROUSEL' : looksLikeVideo(urls[0] ?? '') ? 'REELS' : 'IMAGE');
  const typeKey = mediaType !== undefined ? 'mediaType' : 'contentType';
  const carousel = `a carousel has ${INSTAGRAM_CAROUSEL.min} to ${INSTAGRAM_CAROUSEL.max} items`;

  if (kind === 'CAROUSEL' && urls.length && (urls.length < INSTAGRAM_CAROUSEL.min || urls.length > INSTAGRAM_CAROUSEL.max)) f.fail('mediaUrls', carousel);
  if (kind !== 'CAROUSEL' && urls.length > 1) f.fail('mediaUrls', `${kind} posts take one item; a carousel takes ${INSTAGRAM_CAROUSEL.min} to ${INSTAGRAM_CAROUSEL.max}`);
  if (kind === 'REELS' && urls[0] && !looksLikeVideo(urls[0]) && extensionOf(urls[0]) !== null) f.fail(typeKey, 'Reels need a video');
  urls.forEach((url, i) => {
    if (NOT_JPEG.has(extensionOf(url) ?? '')) f.fail(f.has('mediaUrl') ? 'mediaUrl' : `mediaUrls[${i}]`, 'instagram images must be JPEG');
  });
  if (input.live) f.failLive(instagramLiveProblem(kind, urls));

  const story = kind === 'STORIES';
  if (story) {
    if (input.content) f.warnings.push({ key: 'content', message: 'stories have no caption; the content is not sent to instagram' });
  } else {
    if (length(input.content) > INSTAGRAM_CAPTION_MAX) f.failTarget('content', `an instagram caption has at most ${INSTAGRAM_CAPTION_MAX} characters`);
    if (hashtagCount(input.content) > INSTAGRAM_HASHTAGS_MAX) f.failTarget('content', `an instagram caption has at most ${INSTAGRAM_HASHTAGS_MAX} hashtags`);
  }
  const storySkip = (key: string) => {
    if (story && f.has(key)) {
      f.skip(key, 'not used on stories; skipped');
      return true;
    }
    return false;
  };
  const firstComment = storySkip('firstComment') ? undefined : f.string('firstComment');
  const collaboratorList = storySkip('collaborators') ? undefined : collaborators(f);
  let locationId: string | undefined;
  if (!storySkip('locationId')) {
    locationId = f.string('locationId');
    if (locationId !== undefined && !f.matches('locationId', locationId)) f.fail('locationId', 'must be a location page id (digits)');
  }
  const tags = userTags(f, urls, kind);
  const alt = altTexts(f, urls, kind);
  const reels = reelsOptions(f, kind);
  const options: InstagramOptions = compact({
    firstComment,
    collaborators: collaboratorList,
    locationId,
    userTags: tags,
    ...alt,
    ...reels,
    commentsEnabled: f.boolean('commentsEnabled'),
    kind,
    mediaUrls: urls.length ? urls : undefined,
  });
  return { options, warnings: f.warnings };
}

function collaborators(f: InstagramFields): string[] | undefined {
  if (!f.has('collaborators')) return undefined;
  const value = f.raw('collaborators');
  const schema = f.prop('collaborators');
  const max = numberKeyword(schema, 'maxItems') ?? 0;
  const username = patternOf(itemsOf(schema));
  if (!Array.isArray(value)) f.fail('collaborators', 'must be an array of usernames');
  if (value.length > max) f.fail('collaborators', `at most ${max} usernames`);
  return value.map((name: unknown, i) => {
    if (typeof name !== 'string' || !(username?.test(name) ?? true)) f.fail(`collaborators[${i}]`, 'must be an instagram username');
    return name;
  });
}

function userTags(f: InstagramFields, urls: string[], kind: InstagramKind): InstagramUserTag[] | undefined {
  if (!f.has('userTags')) return undefined;
  const value = f.raw('userTags');
  const tagSchema = itemsOf(f.prop('userTags'));
  const username = patternOf(propertyOf(tagSchema, 'username'));
  if (!Array.isArray(value)) f.fail('userTags', 'must be an array of {username, x, y, mediaIndex?}');
  return value.map((tag: unknown, i): InstagramUserTag => {
    const at = `userTags[${i}]`;
    if (!tag || typeof tag !== 'object' || Array.isArray(tag)) f.fail(at, 'must be an object');
    const t = tag as Record<string, unknown>;
    if (typeof t.username !== 'string' || !(username?.test(t.username) ?? true)) f.fail(`${at}.username`, t.username === undefined ? 'required' : 'must be an instagram username');
    if (t.mediaIndex !== undefined && (typeof t.mediaIndex !== 'number' || !Number.isInteger(t.mediaIndex) || t.mediaIndex < 0 || (urls.length > 0 && t.mediaIndex >= urls.length))) {
      f.fail(`${at}.mediaIndex`, `must be an item index from 0 to ${Math.max(0, urls.length - 1)}`);
    }
    const index = typeof t.mediaIndex === 'number' ? t.mediaIndex : 0;
    const video = kind === 'REELS' || looksLikeVideo(urls[index] ?? '');
    const position = (axis: 'x' | 'y'): number | undefined => {
      const v = t[axis];
      const schema = propertyOf(tagSchema, axis);
      const min = numberKeyword(schema, 'minimum') ?? 0;
      const max = numberKeyword(schema, 'maximum') ?? 1;
      if (v === undefined && !video) f.fail(`${at}.${axis}`, 'required for photos');
      if (v !== undefined && (typeof v !== 'number' || v < min || v > max)) f.fail(`${at}.${axis}`, `must be a number from ${min} to ${max}`);
      return v;
    };
    const x = position('x');
    const y = position('y');
    return { username: t.username, ...(video ? {} : { x, y }), ...(t.mediaIndex !== undefined ? { mediaIndex: t.mediaIndex } : {}) };
  });
}

function altTexts(f: InstagramFields, urls: string[], kind: InstagramKind): Pick<InstagramOptions, 'altText' | 'altTexts'> {
  const out: Pick<InstagramOptions, 'altText' | 'altTexts'> = {};
  if (f.has('altText') && f.has('altTexts')) f.fail('altTexts', 'give altText or altTexts, not both');
  const imageOnly = kind === 'IMAGE' || (kind === 'STORIES' && !looksLikeVideo(urls[0] ?? ''));
  if (f.has('altText')) {
    if (!imageOnly) f.skip('altText', kind === 'CAROUSEL' ? 'use altTexts (one per item) on carousels; skipped' : 'images only; skipped');
    else out.altText = f.string('altText');
  }
  if (!f.has('altTexts')) return out;
  if (kind !== 'CAROUSEL') {
    f.skip('altTexts', 'carousels only (use altText); skipped');
    return out;
  }
  const value = f.raw('altTexts');
  if (!Array.isArray(value)) f.fail('altTexts', 'must be an array of strings');
  if (urls.length && value.length !== urls.length) f.fail('altTexts', `must give one per carousel item (${urls.length})`);
  // Each item: null, or a string under altText's rules.
  const itemSchema = f.prop('altText');
  out.altTexts = value.map((text: unknown, i) => {
    if (text === null) return null;
    if (typeof text !== 'string') return f.fail(`altTexts[${i}]`, 'must be a string or null');
    const problem = stringProblem(itemSchema, text);
    if (problem) f.fail(`altTexts[${i}]`, problem);
    return text;
  });
  return out;
}

type ReelsOptions = Pick<InstagramOptions, 'shareToFeed' | 'thumbOffset' | 'coverUrl' | 'audioName' | 'trialParams'>;

function reelsOptions(f: InstagramFields, kind: InstagramKind): ReelsOptions {
  const keys = ['shareToFeed', 'thumbOffset', 'coverUrl', 'audioName', 'trialParams'];
  if (kind !== 'REELS') {
    for (const key of keys) f.skip(key, 'Reels only; skipped');
    return {};
  }
  const out: ReelsOptions = {
    shareToFeed: f.boolean('shareToFeed'),
    thumbOffset: f.integer('thumbOffset'),
    coverUrl: f.url('coverUrl'),
    audioName: f.string('audioName'),
  };
  if (f.has('trialParams')) {
    const value = f.raw('trialParams');
    const strategy = value && typeof value === 'object' ? (value as Record<string, unknown>).graduationStrategy : undefined;
    const words = enumOf(propertyOf(f.prop('trialParams'), 'graduationStrategy'));
    if (typeof strategy !== 'string' || !words.includes(strategy)) return f.fail('trialParams.graduationStrategy', `must be one of ${words.join(', ')}`);
    out.trialParams = { graduationStrategy: strategy as InstagramGraduationStrategy };
  }
  return out;
}
