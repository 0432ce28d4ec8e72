// threads' platformSpecificData (contract table "threads"; platforms.md §4.2): the format rules
// of src/platforms/threads/options.ts, its live-only rules when the post goes live, and the
// rules between keys. Options are normalised for the publisher: mediaUrls as a list, mediaType
// decided, altTexts per item.
import type { TSchema } from 'typebox';
import { errors } from '../../http/errors.ts';
import {
  THREADS_CAROUSEL,
  THREADS_TEXT_MAX,
  ThreadsData,
  ThreadsItem,
  threadsLiveMediaProblem,
  threadsLiveTextProblem,
  type ThreadsItemOptions,
  type ThreadsMediaType,
  type ThreadsOptions,
} from './options.ts';
import { compact, enumOf, Fields, itemsOf, length, looksLikeVideo, numberKeyword, propertyOf, stringProblem, urlProblem, type TargetInput, type Validated } from '../validate-fields.ts';

const ITEM_KEYS = new Set(Object.keys(ThreadsItem.properties));
type ThreadsFields = Fields<(typeof ThreadsData)['properties']>;
type Fail = (key: string, problem: string) => never;

interface Media {
  mediaType: ThreadsMediaType;
  mediaUrls: string[];
  altTexts?: Array<string | null>;
}

/** Media of one post or thread item (`schema`: the object its keys belong to), as the publisher reads them. */
function media(f: ThreadsFields, schema: TSchema, at: (key: string) => string, source: Record<string, unknown>): Media {
  const fail: Fail = (key, problem) => {
    throw errors.invalid(at(key), problem);
  };
  if (source.mediaUrl !== undefined && source.mediaUrls !== undefined) fail('mediaUrls', 'give mediaUrl or mediaUrls, not both');
  const raw = source.mediaUrl !== undefined ? [source.mediaUrl] : source.mediaUrls;
  if (raw !== undefined && !Array.isArray(raw)) fail('mediaUrls', 'must be an array of URLs');
  const list = (raw ?? []) as unknown[];
  const max = numberKeyword(propertyOf(schema, 'mediaUrls'), 'maxItems') ?? Number.MAX_SAFE_INTEGER;
  if (list.length > max) fail('mediaUrls', `must have at most ${max} items`);
  const urls = list.map((url, i) => {
    const key = source.mediaUrl !== undefined ? 'mediaUrl' : `mediaUrls[${i}]`;
    if (typeof url !== 'string') return fail(key, 'must be a string');
    const problem = urlProblem(url, f.input.allowHttp, 'an https URL');
    return problem ? fail(key, problem) : url;
  });
  const given = source.mediaType;
  const types = enumOf(propertyOf(schema, 'mediaType'));
  if (given !== undefined && (typeof given !== 'string' || !types.includes(given))) fail('mediaType', `must be one of ${types.join(', ')}`);
  const mediaType = (given as ThreadsMediaType | undefined) ?? (urls.length === 0 ? 'TEXT' : urls.length > 1 ? 'CAROUSEL' : looksLikeVideo(urls[0] ?? '') ? 'VIDEO' : 'IMAGE');
  const carousel = `a carousel has ${THREADS_CAROUSEL.min} to ${THREADS_CAROUSEL.max} items`;
  if (mediaType === 'TEXT' && urls.length) fail('mediaType', 'TEXT posts take no media');
  if (mediaType === 'CAROUSEL' && urls.length && (urls.length < THREADS_CAROUSEL.min || urls.length > THREADS_CAROUSEL.max)) fail('mediaUrls', carousel);
  if ((mediaType === 'IMAGE' || mediaType === 'VIDEO') && urls.length > 1) fail('mediaUrls', `${mediaType} posts take one item; use CAROUSEL for more`);
  const live = f.input.live ? threadsLiveMediaProblem(mediaType, urls) : null;
  if (live) fail(live.key, live.problem);
  const alt = altTexts(schema, source, urls.length, mediaType, fail);
  return { mediaType, mediaUrls: urls, ...(alt ? { altTexts: alt } : {}) };
}

function altTexts(schema: TSchema, source: Record<string, unknown>, count: number, mediaType: ThreadsMediaType, fail: Fail): Array<string | null> | undefined {
  const one = propertyOf(schema, 'altText');
  if (source.altText !== undefined && source.altTexts !== undefined) fail('altTexts', 'give altText or altTexts, not both');
  if (source.altText !== undefined) {
    const alt = source.altText;
    const problem = stringProblem(one, alt);
    if (problem !== null || typeof alt !== 'string') return fail('altText', problem ?? 'must be a string');
    return mediaType === 'TEXT' ? undefined : Array.from({ length: Math.max(1, count) }, () => alt);
  }
  if (source.altTexts === undefined) return undefined;
  if (!Array.isArray(source.altTexts)) return fail('altTexts', 'must be an array of strings');
  if (count && source.altTexts.length !== count) fail('altTexts', `must give one per media item (${count})`);
  return source.altTexts.map((text: unknown, i) => {
    if (text === null) return null;
    const problem = stringProblem(one, text);
    if (problem !== null || typeof text !== 'string') return fail(`altTexts[${i}]`, problem ?? 'must be a string');
    return text;
  });
}

export function validateThreads(input: TargetInput): Validated<ThreadsOptions> {
  const f = new Fields(input, ThreadsData);
  const topicTag = f.string('topicTag');
  if (topicTag !== undefined && !f.matches('topicTag', topicTag)) f.fail('topicTag', 'may not contain . or &');
  const shared = { topicTag, replyControl: f.oneOf('replyControl'), firstComment: f.string('firstComment') };

  if (f.has('threadItems')) {
    const threadItems = items(f);
    for (const key of ['mediaUrl', 'mediaUrls', 'mediaType', 'altText', 'altTexts', 'linkAttachment']) f.skip(key, 'threadItems replace the post content and its media; skipped');
    if (input.content) f.warnings.push({ key: 'content', message: 'threadItems replace the post content; the content is not published on threads' });
    return { options: compact({ ...shared, threadItems }), warnings: f.warnings };
  }

  const m = media(f, ThreadsData, (key) => f.path(key), input.data);
  if (length(input.content) > THREADS_TEXT_MAX) f.failTarget('content', `threads posts have at most ${THREADS_TEXT_MAX} characters`);
  if (input.live) f.failLive(contentProblem(threadsLiveTextProblem(m.mediaType, input.content, 'post')));
  const linkAttachment = f.link('linkAttachment');
  if (linkAttachment !== undefined && m.mediaType !== 'TEXT') f.fail('linkAttachment', 'only on text posts (no media)');
  const options: ThreadsOptions = compact({
    ...shared,
    linkAttachment,
    mediaType: m.mediaType,
    mediaUrls: m.mediaUrls.length ? m.mediaUrls : undefined,
    altTexts: m.altTexts,
  });
  return { options, warnings: f.warnings };
}

const contentProblem = (problem: string | null) => (problem === null ? null : { key: 'content', content: true, problem });

/** threadItems: 1 to 20 replies, each with its text and media; unknown keys of an item are skipped. */
function items(f: ThreadsFields): ThreadsItemOptions[] {
  const value = f.raw('threadItems');
  const schema = f.prop('threadItems');
  const min = numberKeyword(schema, 'minItems') ?? 0;
  const max = numberKeyword(schema, 'maxItems') ?? Number.MAX_SAFE_INTEGER;
  const itemSchema = itemsOf(schema);
  if (!Array.isArray(value)) f.fail('threadItems', 'must be an array');
  if (value.length < min || value.length > max) f.fail('threadItems', `must have ${min} to ${max} items`);
  return value.map((item: unknown, i): ThreadsItemOptions => {
    const at = (key: string) => f.path(`threadItems[${i}].${key}`);
    if (!item || typeof item !== 'object' || Array.isArray(item)) f.fail(`threadItems[${i}]`, 'must be an object');
    const source = item as Record<string, unknown>;
    for (const key of Object.keys(source)) if (!ITEM_KEYS.has(key)) f.warnings.push({ key: `threadItems[${i}].${key}`, message: 'unknown key of a thread item; skipped' });
    const content = source.content;
    if (typeof content !== 'string') throw errors.invalid(at('content'), content === undefined ? 'required' : 'must be a string');
    const problem = stringProblem(propertyOf(itemSchema, 'content'), content);
    if (problem) throw errors.invalid(at('content'), problem);
    const m = media(f, itemSchema, at, source);
    const text = f.input.live ? threadsLiveTextProblem(m.mediaType, content, 'item') : null;
    if (text) throw errors.invalid(at('content'), text);
    return { content, ...m };
  });
}
