// x's platformSpecificData (DESIGN "More platforms", the x table; platforms/x.md §3, §6): the
// format rules of options.ts, the weighted length of every text (the content, each thread item,
// the first comment), media that never mix (4 images, or 1 video, or 1 GIF), alt texts for images
// and GIFs only, polls without media or a quote. A 400 names the field by path.
import { errors } from '../../http/errors.ts';
import { compact, extensionOf, Fields, looksLikeVideo, numberKeyword, urlProblem, type TargetInput, type Validated } from '../validate-fields.ts';
import { X_ALT_MAX, X_MEDIA_MAX, X_POLL, X_THREAD_MAX, XData, XItem, type XItemOptions, type XOptions } from './options.ts';
import { weightedLength, X_TEXT_MAX } from './weighted-length.ts';

const ITEM_KEYS = new Set(Object.keys(XItem.properties));
type Fail = (key: string, problem: string) => never;

const tooLong = (text: string): string | null => {
  const n = weightedLength(text);
  return n > X_TEXT_MAX ? `${n} weighted characters, X allows ${X_TEXT_MAX} (a URL counts 23, CJK and emoji 2)` : null;
};

/** image, gif or video, from the URL's extension (the media check reads the bytes later). */
const kindOf = (url: string): 'image' | 'gif' | 'video' => (looksLikeVideo(url) ? 'video' : extensionOf(url) === 'gif' ? 'gif' : 'image');

interface Media {
  mediaUrls: string[];
  altTexts?: Array<string | null>;
}

/** mediaUrl/mediaUrls and altText/altTexts of the post or of one thread item. */
function media(source: Record<string, unknown>, fail: Fail, allowHttp: boolean): Media {
  if (source.mediaUrl !== undefined && source.mediaUrls !== undefined) fail('mediaUrls', 'give mediaUrl or mediaUrls, not both');
  const raw = source.mediaUrl !== undefined ? [source.mediaUrl] : source.mediaUrls;
  if (raw !== undefined && !Array.isArray(raw)) fail('mediaUrls', 'must be an array of URLs');
  const list = (raw ?? []) as unknown[];
  if (list.length > X_MEDIA_MAX) fail('mediaUrls', `X takes up to ${X_MEDIA_MAX} images, or 1 video, or 1 GIF`);
  const urls = list.map((url, i) => {
    const key = source.mediaUrl !== undefined ? 'mediaUrl' : `mediaUrls[${i}]`;
    if (typeof url !== 'string') return fail(key, 'must be a string');
    const problem = urlProblem(url, allowHttp, 'an https URL');
    return problem ? fail(key, problem) : url;
  });
  const kinds = urls.map(kindOf);
  if (urls.length > 1 && kinds.some((k) => k !== 'image')) fail('mediaUrls', 'X takes up to 4 images, or 1 video, or 1 GIF; no mixing');
  const alt = altTexts(source, urls.length, fail);
  if (alt && kinds[0] === 'video' && alt.some((a) => a !== null)) fail(source.altText !== undefined ? 'altText' : 'altTexts', 'alt text is for images and GIFs, not videos');
  return { mediaUrls: urls, ...(alt ? { altTexts: alt } : {}) };
}

function altTexts(source: Record<string, unknown>, count: number, fail: Fail): Array<string | null> | undefined {
  const limit = { maxLength: X_ALT_MAX } as const;
  if (source.altText !== undefined && source.altTexts !== undefined) fail('altTexts', 'give altText or altTexts, not both');
  if (source.altText !== undefined) {
    const alt = source.altText;
    if (typeof alt !== 'string') return fail('altText', 'must be a string');
    if ([...alt].length > limit.maxLength) fail('altText', `must have at most ${X_ALT_MAX} characters`);
    if (count === 0) fail('altText', 'there is no media to describe');
    return Array.from({ length: count }, () => alt);
  }
  if (source.altTexts === undefined) return undefined;
  if (!Array.isArray(source.altTexts)) return fail('altTexts', 'must be an array of strings');
  if (source.altTexts.length !== count) fail('altTexts', `must give one per media item (${count})`);
  return source.altTexts.map((alt: unknown, i) => {
    if (alt === null) return null;
    if (typeof alt !== 'string') return fail(`altTexts[${i}]`, 'must be a string or null');
    if ([...alt].length > X_ALT_MAX) fail(`altTexts[${i}]`, `must have at most ${X_ALT_MAX} characters`);
    return alt;
  });
}

function poll(f: Fields<(typeof XData)['properties']>): XOptions['poll'] {
  if (!f.has('poll')) return undefined;
  const value = f.raw('poll');
  if (!value || typeof value !== 'object' || Array.isArray(value)) return f.fail('poll', 'must be an object with options and durationMinutes');
  const { options, durationMinutes } = value as Record<string, unknown>;
  if (!Array.isArray(options) || options.length < X_POLL.minOptions || options.length > X_POLL.maxOptions) f.fail('poll.options', `must have ${X_POLL.minOptions} to ${X_POLL.maxOptions} options`);
  options.forEach((option: unknown, i) => {
    if (typeof option !== 'string' || [...option].length < 1 || [...option].length > X_POLL.optionMax) f.fail(`poll.options[${i}]`, `must have 1 to ${X_POLL.optionMax} characters`);
  });
  if (typeof durationMinutes !== 'number' || !Number.isInteger(durationMinutes) || durationMinutes < X_POLL.minMinutes || durationMinutes > X_POLL.maxMinutes) {
    f.fail('poll.durationMinutes', `must be a whole number of minutes from ${X_POLL.minMinutes} to ${X_POLL.maxMinutes}`);
  }
  return { options: options as string[], durationMinutes };
}

export function validateX(input: TargetInput): Validated<XOptions> {
  const f = new Fields(input, XData);
  const firstComment = f.string('firstComment');
  const commentProblem = firstComment === undefined ? null : tooLong(firstComment);
  if (commentProblem) f.fail('firstComment', commentProblem);
  const quoteTweetId = f.string('quoteTweetId');
  if (quoteTweetId !== undefined && !f.matches('quoteTweetId', quoteTweetId)) f.fail('quoteTweetId', 'must be the id of a post (1 to 19 digits)');
  const polled = poll(f);
  if (polled && quoteTweetId !== undefined) f.fail('poll', 'a poll cannot go with quoteTweetId');
  const shared = {
    poll: polled,
    replySettings: f.oneOf('replySettings'),
    quoteTweetId,
    firstComment,
    madeWithAi: f.boolean('madeWithAi'),
    paidPartnership: f.boolean('paidPartnership'),
  };

  if (f.has('threadItems')) {
    const threadItems = items(f);
    for (const key of ['mediaUrl', 'mediaUrls', 'altText', 'altTexts']) f.skip(key, 'threadItems replace the post content and its media; skipped');
    if (input.content) f.warnings.push({ key: 'content', message: 'threadItems replace the post content; the content is not published on x' });
    if (polled && threadItems[0]?.mediaUrls?.length) f.fail('poll', 'a poll cannot go with media (threadItems[0] has media)');
    return { options: compact({ ...shared, threadItems }), warnings: f.warnings };
  }

  const m = media(input.data, (key, problem) => f.fail(key, problem), input.allowHttp);
  const lengthProblem = tooLong(input.content);
  if (lengthProblem) f.failTarget('content', lengthProblem);
  if (polled && m.mediaUrls.length) f.fail('poll', 'a poll cannot go with media');
  if (input.live && !input.content.trim() && m.mediaUrls.length === 0) f.failTarget('content', 'required for an x post without media');
  const options: XOptions = compact({ ...shared, mediaUrls: m.mediaUrls.length ? m.mediaUrls : undefined, altTexts: m.altTexts });
  return { options, warnings: f.warnings };
}

/** threadItems: 1 to 25 posts, each with its text (≤ 280 weighted) and media; unknown keys of an item are skipped. */
function items(f: Fields<(typeof XData)['properties']>): XItemOptions[] {
  const value = f.raw('threadItems');
  const schema = f.prop('threadItems');
  const min = numberKeyword(schema, 'minItems') ?? 1;
  const max = numberKeyword(schema, 'maxItems') ?? X_THREAD_MAX;
  if (!Array.isArray(value)) return f.fail('threadItems', 'must be an array');
  if (value.length < min || value.length > max) f.fail('threadItems', `must have ${min} to ${max} items`);
  return value.map((item: unknown, i): XItemOptions => {
    const at = (key: string) => f.path(`threadItems[${i}].${key}`);
    const fail: Fail = (key, problem) => {
      throw errors.invalid(at(key), problem);
    };
    if (!item || typeof item !== 'object' || Array.isArray(item)) return f.fail(`threadItems[${i}]`, 'must be an object');
    const source = item as Record<string, unknown>;
    for (const key of Object.keys(source)) if (!ITEM_KEYS.has(key)) f.warnings.push({ key: `threadItems[${i}].${key}`, message: 'unknown key of a thread item; skipped' });
    const content = source.content;
    if (typeof content !== 'string') return fail('content', content === undefined ? 'required' : 'must be a string');
    const length = tooLong(content);
    if (length) fail('content', length);
    const m = media(source, fail, f.input.allowHttp);
    if (f.input.live && !content.trim() && m.mediaUrls.length === 0) fail('content', 'required for a post of the chain without media');
    return compact({ content, mediaUrls: m.mediaUrls.length ? m.mediaUrls : undefined, altTexts: m.altTexts });
  });
}
