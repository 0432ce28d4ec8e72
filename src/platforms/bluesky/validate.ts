// bluesky's platformSpecificData (DESIGN "More platforms", the bluesky table; bluesky.md §4): the
// format rules of options.ts, the length of every text in graphemes and UTF-8 bytes (the content,
// each thread item, the first comment), media that never mix (1 to 4 images, or 1 MP4 video),
// alt texts in graphemes, a link card only without media, a quoted post's at:// URI, 1 to 3
// languages. A 400 names the field by path.
import { altTextList, chainItems, compact, Fields, itemsOf, looksLikeVideo, mediaUrlList, patternOf, propertyOf, stringProblem, urlProblem, type Fail, type TargetInput, type Validated } from '../validate-fields.ts';
import { BSKY_ALT_GRAPHEMES, BSKY_IMAGES_MAX, BSKY_LANGS_MAX, BSKY_THREAD_MAX, BlueskyData, BlueskyItem, BlueskyLinkCard, type BlueskyItemOptions, type BlueskyLinkCardOptions, type BlueskyOptions } from './options.ts';
import { graphemes, textProblem } from './text.ts';

const ITEM_KEYS = new Set(Object.keys(BlueskyItem.properties));
const CARD_KEYS = new Set(Object.keys(BlueskyLinkCard.properties));
type BlueskyFields = Fields<(typeof BlueskyData)['properties']>;

interface Media {
  mediaUrls: string[];
  altTexts?: Array<string | null>;
}

const altProblem = (alt: string): string | null => (graphemes(alt) > BSKY_ALT_GRAPHEMES ? `${graphemes(alt)} graphemes, Bluesky allows ${BSKY_ALT_GRAPHEMES}` : null);

/** mediaUrl/mediaUrls and altText/altTexts of the post or of one thread item. */
function media(source: Record<string, unknown>, fail: Fail, allowHttp: boolean): Media {
  const urls = mediaUrlList(source, fail, allowHttp, { max: BSKY_IMAGES_MAX, tooMany: `Bluesky takes 1 to ${BSKY_IMAGES_MAX} images, or 1 MP4 video`, atLeastOne: true });
  if (urls.length > 1 && urls.some(looksLikeVideo)) fail('mediaUrls', `Bluesky takes 1 to ${BSKY_IMAGES_MAX} images, or 1 MP4 video; no mixing`);
  const alt = altTextList(source, urls.length, fail, altProblem);
  return { mediaUrls: urls, ...(alt ? { altTexts: alt } : {}) };
}

/** linkCard: an https link, and optional title, description and thumbnail image. */
function linkCard(f: BlueskyFields): BlueskyLinkCardOptions | undefined {
  if (!f.has('linkCard')) return undefined;
  const value = f.raw('linkCard');
  if (!value || typeof value !== 'object' || Array.isArray(value)) return f.fail('linkCard', 'must be an object with url (and title, description, thumbnailUrl)');
  const card = value as Record<string, unknown>;
  for (const key of Object.keys(card)) if (!CARD_KEYS.has(key)) f.warnings.push({ key: `linkCard.${key}`, message: 'unknown key of a link card; skipped' });
  if (card.url === undefined) f.fail('linkCard.url', 'required');
  const string = (key: 'url' | 'title' | 'description' | 'thumbnailUrl'): string | undefined => {
    if (card[key] === undefined) return undefined;
    const problem = stringProblem(propertyOf(BlueskyLinkCard, key), card[key]);
    if (problem) f.fail(`linkCard.${key}`, problem);
    return card[key] as string;
  };
  const url = string('url') ?? '';
  if (urlProblem(url, false, 'an https URL')) f.fail('linkCard.url', 'must be an https URL');
  const thumbnailUrl = string('thumbnailUrl');
  const thumbProblem = thumbnailUrl === undefined ? null : urlProblem(thumbnailUrl, f.input.allowHttp, 'an https URL');
  if (thumbProblem) f.fail('linkCard.thumbnailUrl', thumbProblem);
  return compact({ url, title: string('title'), description: string('description'), thumbnailUrl });
}

function langs(f: BlueskyFields): string[] | undefined {
  if (!f.has('langs')) return undefined;
  const value = f.raw('langs');
  if (!Array.isArray(value) || value.length < 1 || value.length > BSKY_LANGS_MAX) return f.fail('langs', `must be an array of 1 to ${BSKY_LANGS_MAX} language tags`);
  const pattern = patternOf(itemsOf(propertyOf(BlueskyData, 'langs')));
  return value.map((tag: unknown, i) => {
    if (typeof tag !== 'string' || !(pattern?.test(tag) ?? true)) return f.fail(`langs[${i}]`, 'must be a BCP-47 language tag (en, pt-BR …)');
    return tag;
  });
}

export function validateBluesky(input: TargetInput): Validated<BlueskyOptions> {
  const f = new Fields(input, BlueskyData);
  const firstComment = f.string('firstComment');
  const commentProblem = firstComment === undefined ? null : textProblem(firstComment);
  if (commentProblem) f.fail('firstComment', commentProblem);
  const quoteUri = f.string('quoteUri');
  if (quoteUri !== undefined && !f.matches('quoteUri', quoteUri)) f.fail('quoteUri', 'must be the at:// URI of a post (at://did:plc:…/app.bsky.feed.post/…)');
  const card = linkCard(f);
  const shared = { linkCard: card, quoteUri, langs: langs(f), replyControl: f.oneOf('replyControl'), contentWarning: f.oneOf('contentWarning'), firstComment };

  if (f.has('threadItems')) {
    const threadItems = items(f);
    for (const key of ['mediaUrl', 'mediaUrls', 'altText', 'altTexts']) f.skip(key, 'threadItems replace the post content and its media; skipped');
    if (input.content) f.warnings.push({ key: 'content', message: 'threadItems replace the post content; the content is not published on bluesky' });
    if (card && threadItems[0]?.mediaUrls?.length) f.fail('linkCard', 'a link card cannot go with media (threadItems[0] has media)');
    return { options: compact({ ...shared, threadItems }), warnings: f.warnings };
  }

  const m = media(input.data, (key, problem) => f.fail(key, problem), input.allowHttp);
  const lengthProblem = textProblem(input.content);
  if (lengthProblem) f.failTarget('content', lengthProblem);
  if (card && m.mediaUrls.length) f.fail('linkCard', 'a link card cannot go with media');
  if (input.live && !input.content.trim() && m.mediaUrls.length === 0 && !card && quoteUri === undefined) f.failTarget('content', 'required for a bluesky post without media, a link card or a quote');
  const options: BlueskyOptions = compact({ ...shared, mediaUrls: m.mediaUrls.length ? m.mediaUrls : undefined, altTexts: m.altTexts });
  return { options, warnings: f.warnings };
}

/** threadItems: 1 to 25 posts, each with its text and media; unknown keys of an item are skipped. */
function items(f: BlueskyFields): BlueskyItemOptions[] {
  return chainItems(f, { max: BSKY_THREAD_MAX, itemKeys: ITEM_KEYS, textProblem, media: (source, fail) => media(source, fail, f.input.allowHttp) });
}
