// x's platformSpecificData (DESIGN "More platforms", the x table; platforms/x.md §3, §6): the
// format rules of options.ts, the weighted length of every text (the content, each thread item,
// the first comment), media that never mix (4 images, or 1 video, or 1 GIF), alt texts for images
// and GIFs only, polls without media or a quote. A 400 names the field by path.
import { altTextList, chainItems, compact, extensionOf, Fields, looksLikeVideo, mediaUrlList, type Fail, type TargetInput, type Validated } from '../validate-fields.ts';
import { X_ALT_MAX, X_MEDIA_MAX, X_POLL, X_THREAD_MAX, XData, XItem, type XItemOptions, type XOptions } from './options.ts';
import { weightedLength, X_TEXT_MAX } from './weighted-length.ts';

const ITEM_KEYS = new Set(Object.keys(XItem.properties));

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
  const urls = mediaUrlList(source, fail, allowHttp, { max: X_MEDIA_MAX, tooMany: `X takes up to ${X_MEDIA_MAX} images, or 1 video, or 1 GIF` });
  const kinds = urls.map(kindOf);
  if (urls.length > 1 && kinds.some((k) => k !== 'image')) fail('mediaUrls', 'X takes up to 4 images, or 1 video, or 1 GIF; no mixing');
  const alt = altTextList(source, urls.length, fail, (text) => ([...text].length > X_ALT_MAX ? `must have at most ${X_ALT_MAX} characters` : null));
  if (alt && kinds[0] === 'video' && alt.some((a) => a !== null)) fail(source.altText !== undefined ? 'altText' : 'altTexts', 'alt text is for images and GIFs, not videos');
  return { mediaUrls: urls, ...(alt ? { altTexts: alt } : {}) };
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
    noRepeats(f, threadItems.map((item, i) => [`threadItems[${i}].content`, item.content]), firstComment);
    for (const key of ['mediaUrl', 'mediaUrls', 'altText', 'altTexts']) f.skip(key, 'threadItems replace the post content and its media; skipped');
    if (input.content) f.warnings.push({ key: 'content', message: 'threadItems replace the post content; the content is not published on x' });
    if (polled && threadItems[0]?.mediaUrls?.length) f.fail('poll', 'a poll cannot go with media (threadItems[0] has media)');
    return { options: compact({ ...shared, threadItems }), warnings: f.warnings };
  }

  const m = media(input.data, (key, problem) => f.fail(key, problem), input.allowHttp);
  noRepeats(f, [['content', input.content]], firstComment);
  const lengthProblem = tooLong(input.content);
  if (lengthProblem) f.failTarget('content', lengthProblem);
  if (polled && m.mediaUrls.length) f.fail('poll', 'a poll cannot go with media');
  if (input.live && !input.content.trim() && m.mediaUrls.length === 0) f.failTarget('content', 'required for an x post without media');
  const options: XOptions = compact({ ...shared, mediaUrls: m.mediaUrls.length ? m.mediaUrls : undefined, altTexts: m.altTexts });
  return { options, warnings: f.warnings };
}

/**
 * The posts of one chain have different texts: X refuses a post with the text of one of the
 * account's recent posts (x.md §7, 403 duplicate content), so a repeat would stop the chain
 * halfway, its first posts live. Empty texts (media only) are not compared.
 */
function noRepeats(f: Fields<(typeof XData)['properties']>, texts: Array<[string, string]>, firstComment: string | undefined): void {
  const seen = new Map<string, string>();
  const check = (field: string, value: string) => {
    const key = value.normalize('NFC');
    if (!key.trim()) return;
    const earlier = seen.get(key);
    if (earlier !== undefined) f.fail(field, `the same text as ${earlier}; X refuses a post that repeats a recent one`);
    seen.set(key, field);
  };
  for (const [field, value] of texts) check(field, value);
  if (firstComment !== undefined) check('firstComment', firstComment);
}

/** threadItems: 1 to 25 posts, each with its text (≤ 280 weighted) and media; unknown keys of an item are skipped. */
function items(f: Fields<(typeof XData)['properties']>): XItemOptions[] {
  return chainItems(f, { max: X_THREAD_MAX, itemKeys: ITEM_KEYS, textProblem: tooLong, media: (source, fail) => media(source, fail, f.input.allowHttp) });
}
