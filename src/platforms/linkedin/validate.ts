// linkedin's platformSpecificData rules (DESIGN "More platforms", the linkedin table): the
// commentary's length (before escaping), media as IMAGE (1, or 2–20 for multi-image), VIDEO (1)
// or DOCUMENT (1, with a title), never mixed, alt texts for images, an article not with media,
// the first comment. A live post needs its commentary (LinkedIn refuses an empty one).
import { errors } from '../../http/errors.ts';
import { compact, extensionOf, Fields, length, looksLikeVideo, stringProblem, urlProblem, type TargetInput, type Validated } from '../validate-fields.ts';
import { LINKEDIN_COMMENTARY_MAX, LINKEDIN_MULTI_IMAGE, LinkedInData, type LinkedInMediaType, type LinkedInOptions } from './options.ts';
import { isOrganizationUrn } from './publish.ts';

type LinkedInFields = Fields<(typeof LinkedInData)['properties']>;

const DOCUMENT_EXTENSIONS = new Set(['pdf', 'ppt', 'pptx', 'doc', 'docx']);
const kindOfUrl = (url: string): LinkedInMediaType => (DOCUMENT_EXTENSIONS.has(extensionOf(url) ?? '') ? 'DOCUMENT' : looksLikeVideo(url) ? 'VIDEO' : 'IMAGE');

function mediaType(f: LinkedInFields, urls: string[]): LinkedInMediaType | undefined {
  const given = f.oneOf('mediaType');
  if (urls.length === 0) {
    if (given !== undefined && f.input.live) f.fail('mediaUrls', `required for ${given} posts`);
    return given;
  }
  const kinds = new Set(urls.map(kindOfUrl));
  if (given === undefined && kinds.size > 1) f.fail('mediaUrls', 'images, a video and a document cannot be mixed in one post');
  const type = given ?? kindOfUrl(urls[0] ?? '');
  if (type !== 'IMAGE' && urls.length > 1) f.fail('mediaUrls', `${type} posts take one item; only images make a multi-image post`);
  if (type === 'IMAGE' && urls.length > 1 && urls.length < LINKEDIN_MULTI_IMAGE.min) f.fail('mediaUrls', `a multi-image post has ${LINKEDIN_MULTI_IMAGE.min} to ${LINKEDIN_MULTI_IMAGE.max} images`);
  return type;
}

function altTexts(f: LinkedInFields, count: number, type: LinkedInMediaType | undefined): Array<string | null> | undefined {
  if (f.has('altText') && f.has('altTexts')) f.fail('altTexts', 'give altText or altTexts, not both');
  if ((f.has('altText') || f.has('altTexts')) && type !== 'IMAGE') f.fail(f.has('altText') ? 'altText' : 'altTexts', 'alt texts are for images');
  const one = f.string('altText');
  if (one !== undefined) return Array.from({ length: count }, () => one);
  if (!f.has('altTexts')) return undefined;
  const value = f.raw('altTexts');
  if (!Array.isArray(value)) return f.fail('altTexts', 'must be an array of strings');
  if (value.length !== count) f.fail('altTexts', `must give one per image (${count})`);
  const schema = f.prop('altText');
  return value.map((text: unknown, i) => {
    if (text === null) return null;
    const problem = stringProblem(schema, text);
    if (problem !== null || typeof text !== 'string') return f.fail(`altTexts[${i}]`, problem ?? 'must be a string');
    return text;
  });
}

function article(f: LinkedInFields): LinkedInOptions['article'] {
  if (!f.has('article')) return undefined;
  const value = f.raw('article');
  if (!value || typeof value !== 'object' || Array.isArray(value)) return f.fail('article', 'must be an object');
  const source = value as Record<string, unknown>;
  const at = (key: string) => f.path(`article.${key}`);
  if (typeof source.url !== 'string') throw errors.invalid(at('url'), source.url === undefined ? 'required' : 'must be a string');
  const urlProblemText = urlProblem(source.url, false, 'an https URL');
  if (urlProblemText) throw errors.invalid(at('url'), urlProblemText);
  if (typeof source.title !== 'string' || !source.title.trim()) throw errors.invalid(at('title'), source.title === undefined ? 'required' : 'must be a non-empty string');
  if (length(source.title) > 400) throw errors.invalid(at('title'), 'must have at most 400 characters');
  if (source.description !== undefined && (typeof source.description !== 'string' || length(source.description) > 4086)) throw errors.invalid(at('description'), 'must be a string of at most 4086 characters');
  if (source.thumbnailUrl !== undefined) {
    const problem = typeof source.thumbnailUrl === 'string' ? urlProblem(source.thumbnailUrl, f.input.allowHttp, 'an https URL') : 'must be a string';
    if (problem) throw errors.invalid(at('thumbnailUrl'), problem);
  }
  for (const key of Object.keys(source)) if (!['url', 'title', 'description', 'thumbnailUrl'].includes(key)) f.warnings.push({ key: `article.${key}`, message: 'unknown key of an article; skipped' });
  return compact({
    url: source.url,
    title: source.title,
    description: typeof source.description === 'string' ? source.description : undefined,
    thumbnailUrl: typeof source.thumbnailUrl === 'string' ? source.thumbnailUrl : undefined,
  });
}

export function validateLinkedIn(input: TargetInput): Validated<LinkedInOptions> {
  const f = new Fields(input, LinkedInData);
  if (length(input.content) > LINKEDIN_COMMENTARY_MAX) f.failTarget('content', `LinkedIn posts have at most ${LINKEDIN_COMMENTARY_MAX} characters`);
  if (input.live && !input.content.trim()) f.failTarget('content', 'required for a LinkedIn post (LinkedIn refuses an empty commentary)');
  const urls = f.mediaUrls();
  const type = mediaType(f, urls);
  const alts = altTexts(f, urls.length, type);
  const title = f.string('title');
  if (type === 'DOCUMENT' && title === undefined) f.fail('title', 'required for a DOCUMENT post');
  if (title !== undefined && type !== 'DOCUMENT' && type !== 'VIDEO') f.fail('title', 'only for a DOCUMENT or VIDEO post');
  const link = article(f);
  if (link && urls.length) f.fail('article', 'an article link card cannot go with media');
  const visibility = f.oneOf('visibility');
  // The account is known when the post is made; the publisher checks again for a stored target.
  if (visibility === 'CONNECTIONS' && input.account && isOrganizationUrn(input.account.platformUserId)) f.fail('visibility', 'CONNECTIONS is for person accounts only; this is an organization');
  const options: LinkedInOptions = compact({
    visibility,
    mediaType: urls.length ? type : undefined,
    mediaUrls: urls.length ? urls : undefined,
    altTexts: alts,
    title,
    article: link,
    firstComment: f.string('firstComment'),
    disableReshare: f.boolean('disableReshare'),
  });
  return { options, warnings: f.warnings };
}
