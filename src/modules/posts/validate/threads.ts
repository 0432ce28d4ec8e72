// threads' platformSpecificData (contract table "threads"; platforms.md §4.2). Options are
// normalised for the publisher: mediaUrls as a list, mediaType decided, altTexts per item.
import { errors } from '../../../http/errors.ts';
import { checkLength, Fields, length, looksLikeVideo, urlProblem, type TargetInput, type TargetResult } from './common.ts';

export const THREADS_KEYS = ['mediaUrl', 'mediaUrls', 'mediaType', 'topicTag', 'replyControl', 'linkAttachment', 'altText', 'altTexts', 'firstComment', 'threadItems'] as const;
const MEDIA_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'] as const;
const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'] as const;
const TEXT_MAX = 500;
const ITEM_KEYS = new Set(['content', 'mediaUrl', 'mediaUrls', 'mediaType', 'altText', 'altTexts']);

type MediaType = (typeof MEDIA_TYPES)[number];

/** Media of one post or thread item: the list, its type, and one alt text per item. */
function media(f: Fields, at: (key: string) => string, source: Record<string, unknown>): { mediaType: MediaType; mediaUrls: string[]; altTexts?: Array<string | null> } {
  const fail = (key: string, problem: string): never => {
    throw errors.invalid(at(key), problem);
  };
  if (source.mediaUrl !== undefined && source.mediaUrls !== undefined) fail('mediaUrls', 'give mediaUrl or mediaUrls, not both');
  const raw = source.mediaUrl !== undefined ? [source.mediaUrl] : source.mediaUrls;
  if (raw !== undefined && !Array.isArray(raw)) fail('mediaUrls', 'must be an array of URLs');
  const list = (raw ?? []) as unknown[];
  if (list.length > 20) fail('mediaUrls', 'must have at most 20 items');
  const urls = list.map((url, i) => {
    const key = source.mediaUrl !== undefined ? 'mediaUrl' : `mediaUrls[${i}]`;
    if (typeof url !== 'string') return fail(key, 'must be a string');
    const problem = urlProblem(url, f.input.allowHttp, 'an https URL');
    return problem ? fail(key, problem) : url;
  });
  const given = source.mediaType;
  if (given !== undefined && (typeof given !== 'string' || !(MEDIA_TYPES as readonly string[]).includes(given))) fail('mediaType', `must be one of ${MEDIA_TYPES.join(', ')}`);
  const mediaType = (given as MediaType | undefined) ?? (urls.length === 0 ? 'TEXT' : urls.length > 1 ? 'CAROUSEL' : looksLikeVideo(urls[0] ?? '') ? 'VIDEO' : 'IMAGE');
  if (mediaType === 'TEXT' && urls.length) fail('mediaType', 'TEXT posts take no media');
  if (mediaType === 'CAROUSEL' && urls.length && (urls.length < 2 || urls.length > 20)) fail('mediaUrls', 'a carousel has 2 to 20 items');
  if ((mediaType === 'IMAGE' || mediaType === 'VIDEO') && urls.length > 1) fail('mediaUrls', `${mediaType} posts take one item; use CAROUSEL for more`);
  if (f.input.live && mediaType !== 'TEXT' && urls.length === 0) fail('mediaUrls', `required for ${mediaType} posts`);
  if (f.input.live && mediaType === 'CAROUSEL' && urls.length < 2) fail('mediaUrls', 'a carousel has 2 to 20 items');
  const alt = altTexts(source, urls.length, mediaType, fail);
  return { mediaType, mediaUrls: urls, ...(alt ? { altTexts: alt } : {}) };
}

function altTexts(source: Record<string, unknown>, count: number, mediaType: MediaType, fail: (key: string, problem: string) => never): Array<string | null> | undefined {
  if (source.altText !== undefined && source.altTexts !== undefined) fail('altTexts', 'give altText or altTexts, not both');
  if (source.altText !== undefined) {
    const alt = source.altText;
    if (typeof alt !== 'string') return fail('altText', 'must be a string');
    checkLength(alt, { max: 1000 }, (p) => fail('altText', p));
    return mediaType === 'TEXT' ? undefined : Array.from({ length: Math.max(1, count) }, () => alt);
  }
  if (source.altTexts === undefined) return undefined;
  if (!Array.isArray(source.altTexts)) return fail('altTexts', 'must be an array of strings');
  if (count && source.altTexts.length !== count) fail('altTexts', `must give one per media item (${count})`);
  return source.altTexts.map((text: unknown, i) => {
    if (text === null) return null;
    if (typeof text !== 'string') return fail(`altTexts[${i}]`, 'must be a string');
    checkLength(text, { max: 1000 }, (p) => fail(`altTexts[${i}]`, p));
    return text;
  });
}

export function validateThreads(input: TargetInput): TargetResult {
  const f: Fields = new Fields(input);
  const topicTag = f.string('topicTag', { min: 1, max: 50 });
  if (topicTag !== undefined && /[.&]/.test(topicTag)) f.fail('topicTag', 'may not contain . or &');
  f.keep('topicTag', topicTag);
  f.keep('replyControl', f.oneOf('replyControl', REPLY_CONTROLS));
  const firstComment = f.string('firstComment', { min: 1, max: TEXT_MAX });
  f.keep('firstComment', firstComment);

  if (f.has('threadItems')) {
    const items = f.raw('threadItems');
    if (!Array.isArray(items)) f.fail('threadItems', 'must be an array');
    if (items.length < 1 || items.length > 20) f.fail('threadItems', 'must have 1 to 20 items');
    const normalised = items.map((item: unknown, i) => {
      const at = (key: string) => f.path(`threadItems[${i}].${key}`);
      if (!item || typeof item !== 'object' || Array.isArray(item)) f.fail(`threadItems[${i}]`, 'must be an object');
      const source = item as Record<string, unknown>;
      for (const key of Object.keys(source)) if (!ITEM_KEYS.has(key)) f.warnings.push({ key: `threadItems[${i}].${key}`, message: 'unknown key of a thread item; skipped' });
      if (typeof source.content !== 'string') throw errors.invalid(at('content'), source.content === undefined ? 'required' : 'must be a string');
      checkLength(source.content, { max: TEXT_MAX }, (p) => {
        throw errors.invalid(at('content'), p);
      });
      const m = media(f, at, source);
      if (m.mediaType === 'TEXT' && !source.content.trim() && input.live) throw errors.invalid(at('content'), 'required for a text item');
      return { content: source.content, ...m };
    });
    f.keep('threadItems', normalised);
    for (const key of ['mediaUrl', 'mediaUrls', 'mediaType', 'altText', 'altTexts', 'linkAttachment']) f.skip(key, 'threadItems replace the post content and its media; skipped');
    if (input.content) f.warnings.push({ key: 'content', message: 'threadItems replace the post content; the content is not published on threads' });
    return f.result();
  }

  const at = (key: string) => f.path(key);
  const m = media(f, at, input.data);
  if (length(input.content) > TEXT_MAX) f.failTarget('content', `threads posts have at most ${TEXT_MAX} characters`);
  if (input.live && m.mediaType === 'TEXT' && !input.content.trim()) f.failTarget('content', 'required for a threads text post');
  const link = f.link('linkAttachment');
  if (link !== undefined && m.mediaType !== 'TEXT') f.fail('linkAttachment', 'only on text posts (no media)');
  f.keep('linkAttachment', link);
  f.keep('mediaType', m.mediaType);
  if (m.mediaUrls.length) f.keep('mediaUrls', m.mediaUrls);
  f.keep('altTexts', m.altTexts);
  return f.result();
}
