// The Posts API (linkedin.md §4, §7): create (201, the URN in `x-restli-id`, no body), read one,
// list by author, edit the commentary (PARTIAL_UPDATE), delete (204, idempotent). Creation checks
// what LinkedIn checks: author and rights, commentary, visibility (CONNECTIONS for members only),
// distribution, lifecycle, and content (one media of the author's that is AVAILABLE, a document
// with its title, 2–20 images, or an article with source and title); an identical post of the
// author answers 422 DUPLICATE_POST naming the first; each member's posts are capped per UTC day
// (429 until 00:00 UTC, no Retry-After).
import type { RouteContext } from '../core/router.ts';
import { obj, list } from '../core/control.ts';

type Json = Record<string, unknown>;
import { restAuth } from './auth.ts';
import { checkActor } from './acting.ts';
import { inputError, linkedinError } from './errors.ts';
import { readLittleText } from './little-text.ts';
import { availableAsset } from './media.ts';
import type { LinkedInPost } from './store.ts';

const VISIBILITIES = new Set(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER']);
const COMMENTARY_MAX = 3000;
const MULTI_IMAGE = { min: 2, max: 20 } as const;

const invalid = (field: string, message: string) => linkedinError(422, `/${field}: ${message}`, { code: 'UNPROCESSABLE_ENTITY' });

/** The content block, checked: one media, multiImage or article. */
function checkContent(ctx: RouteContext, author: string, value: unknown): Json | null {
  if (value === undefined || value === null) return null;
  const content = obj(value);
  const kinds = ['media', 'multiImage', 'article', 'poll', 'reference'].filter((k) => content[k] !== undefined);
  if (kinds.length !== 1) throw invalid('content', 'exactly one of media, multiImage, article, poll or reference is required');
  if (content.poll !== undefined || content.reference !== undefined) throw invalid('content', 'not supported by the sandbox');
  if (content.media !== undefined) {
    const media = obj(content.media);
    const id = typeof media.id === 'string' ? media.id : '';
    const asset = availableAsset(ctx, id, author, 'content/media/id');
    if (asset.kind === 'document' && (typeof media.title !== 'string' || !media.title)) throw invalid('content/media/title', 'a document post needs a title');
    if (media.altText !== undefined && (typeof media.altText !== 'string' || asset.kind !== 'image')) throw invalid('content/media/altText', 'alt text is for images');
  }
  if (content.multiImage !== undefined) {
    const images = list(obj(content.multiImage).images);
    if (images.length < MULTI_IMAGE.min || images.length > MULTI_IMAGE.max) throw invalid('content/multiImage/images', `${MULTI_IMAGE.min} to ${MULTI_IMAGE.max} images`);
    images.forEach((image, i) => {
      const asset = availableAsset(ctx, typeof image.id === 'string' ? image.id : '', author, `content/multiImage/images/${i}/id`);
      if (asset.kind !== 'image') throw invalid(`content/multiImage/images/${i}/id`, 'must be an image');
    });
  }
  if (content.article !== undefined) {
    const article = obj(content.article);
    if (typeof article.source !== 'string' || !/^https?:\/\//.test(article.source)) throw invalid('content/article/source', 'a URL is required');
    if (typeof article.title !== 'string' || !article.title) throw invalid('content/article/title', 'required');
    if (article.thumbnail !== undefined) availableAsset(ctx, typeof article.thumbnail === 'string' ? article.thumbnail : '', author, 'content/article/thumbnail');
  }
  return content;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** POST /rest/posts. */
export function createPost(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const body = obj(ctx.body);
  const author = typeof body.author === 'string' ? body.author : '';
  if (!author) throw invalid('author', 'required');
  checkActor(ctx.state, caller, author, 'write');
  if (typeof body.commentary !== 'string') throw invalid('commentary', 'required');
  if (!body.commentary.trim()) throw invalid('commentary', 'must not be empty');
  if (typeof body.visibility !== 'string' || !VISIBILITIES.has(body.visibility)) throw invalid('visibility', 'one of PUBLIC, CONNECTIONS, LOGGED_IN, CONTAINER');
  if (body.visibility === 'CONNECTIONS' && !author.startsWith('urn:li:person:')) throw invalid('visibility', 'CONNECTIONS is for member authors only');
  const distribution = obj(body.distribution);
  if (distribution.feedDistribution !== 'MAIN_FEED' && distribution.feedDistribution !== 'NONE') throw invalid('distribution/feedDistribution', 'MAIN_FEED or NONE is required');
  if (body.lifecycleState !== 'PUBLISHED' && body.lifecycleState !== 'DRAFT') throw invalid('lifecycleState', 'PUBLISHED or DRAFT is required');
  if (body.isReshareDisabledByAuthor !== undefined && typeof body.isReshareDisabledByAuthor !== 'boolean') throw invalid('isReshareDisabledByAuthor', 'must be a boolean');
  const content = checkContent(ctx, author, body.content);
  const text = readLittleText(body.commentary);
  if (text.shown.length > COMMENTARY_MAX) throw invalid('commentary', `at most ${COMMENTARY_MAX} characters`);

  const store = ctx.state.linkedin;
  const now = ctx.state.clock.now();
  const sameContent = JSON.stringify(content);
  const duplicate = [...store.posts.values()].find((p) => !p.deleted && p.author === author && p.commentary === body.commentary && JSON.stringify(p.content) === sameContent);
  if (duplicate) {
    throw inputError(`com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${duplicate.urn}`, 'DUPLICATE_POST', 'Duplicate post is detected');
  }
  const dayKey = `${caller.member.id}:${dayOf(now)}`;
  const made = store.daily.get(dayKey) ?? 0;
  if (made >= ctx.state.settings.linkedin.dailyPosts) {
    throw linkedinError(429, 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.', { code: 'TOO_MANY_REQUESTS' });
  }
  store.daily.set(dayKey, made + 1);
  const post: LinkedInPost = {
    urn: `urn:li:share:${ctx.state.ids.numeric('linkedin-share', '7', 19)}`,
    author,
    memberId: caller.member.id,
    commentary: body.commentary,
    shown: text.shown,
    truncated: text.truncated,
    visibility: body.visibility,
    content,
    isReshareDisabledByAuthor: body.isReshareDisabledByAuthor === true,
    lifecycleState: body.lifecycleState,
    createdAt: now,
    lastModifiedAt: now,
    deleted: false,
    stats: { impressionCount: 120, uniqueImpressionsCount: 95, clickCount: 7, likeCount: 12, shareCount: 3 },
  };
  store.posts.set(post.urn, post);
  return ctx.reply.status(201).header('x-restli-id', post.urn).header('x-linkedin-id', post.urn).send();
}

function present(post: LinkedInPost): Json {
  return {
    id: post.urn,
    author: post.author,
    commentary: post.commentary,
    visibility: post.visibility,
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    ...(post.content ? { content: post.content } : {}),
    lifecycleState: post.lifecycleState,
    isReshareDisabledByAuthor: post.isReshareDisabledByAuthor,
    createdAt: post.createdAt,
    publishedAt: post.createdAt,
    lastModifiedAt: post.lastModifiedAt,
  };
}

function findPost(ctx: RouteContext): LinkedInPost | undefined {
  const post = ctx.state.linkedin.posts.get(ctx.params.urn ?? '');
  return post && !post.deleted ? post : undefined;
}

/** GET /rest/posts/{urn}. */
export function readPost(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const post = findPost(ctx);
  if (!post) throw linkedinError(404, `Post ${ctx.params.urn ?? ''} does not exist`, { code: 'NOT_FOUND' });
  checkActor(ctx.state, caller, post.author, 'read');
  return present(post);
}

/** GET /rest/posts?q=author&author=…&sortBy=CREATED|LAST_MODIFIED&start&count (10–100). */
export function postsByAuthor(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  if (ctx.query.q !== 'author') throw linkedinError(400, 'q must be author', { code: 'ILLEGAL_ARGUMENT' });
  const author = ctx.query.author ?? '';
  checkActor(ctx.state, caller, author, 'read', 'author');
  const sortBy = ctx.query.sortBy ?? 'LAST_MODIFIED';
  if (sortBy !== 'CREATED' && sortBy !== 'LAST_MODIFIED') throw linkedinError(400, 'sortBy must be CREATED or LAST_MODIFIED', { code: 'ILLEGAL_ARGUMENT' });
  const start = Number(ctx.query.start ?? 0);
  const count = Math.min(100, Math.max(1, Number(ctx.query.count ?? 10)));
  const key = (p: LinkedInPost) => (sortBy === 'CREATED' ? p.createdAt : p.lastModifiedAt);
  const posts = [...ctx.state.linkedin.posts.values()].filter((p) => p.author === author && !p.deleted).sort((a, b) => key(b) - key(a) || b.urn.localeCompare(a.urn));
  const page = posts.slice(start, start + count);
  const links = start + count < posts.length ? [{ rel: 'next', type: 'application/json', href: `/rest/posts?q=author&author=${encodeURIComponent(author)}&sortBy=${sortBy}&start=${start + count}&count=${count}` }] : [];
  return { elements: page.map(present), paging: { start, count, total: posts.length, links } };
}

/** POST /rest/posts/{urn} with X-RestLi-Method: PARTIAL_UPDATE: `{patch: {$set: {commentary}}}`. */
export function updatePost(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  if (String(ctx.request.headers['x-restli-method'] ?? '').toUpperCase() !== 'PARTIAL_UPDATE') throw linkedinError(400, 'X-RestLi-Method: PARTIAL_UPDATE is required', { code: 'ILLEGAL_ARGUMENT' });
  const post = findPost(ctx);
  if (!post) throw linkedinError(404, `Post ${ctx.params.urn ?? ''} does not exist`, { code: 'NOT_FOUND' });
  checkActor(ctx.state, caller, post.author, 'write');
  const set = obj(obj(obj(ctx.body).patch).$set);
  const allowed = ['commentary', 'contentCallToActionLabel', 'contentLandingPage', 'lifecycleState', 'adContext'];
  const other = Object.keys(set).find((k) => !allowed.includes(k));
  if (other) throw invalid(other, 'cannot be changed');
  if (typeof set.commentary === 'string') {
    const text = readLittleText(set.commentary);
    Object.assign(post, { commentary: set.commentary, shown: text.shown, truncated: text.truncated });
  }
  post.lastModifiedAt = ctx.state.clock.now();
  return ctx.reply.status(204).send();
}

/** DELETE /rest/posts/{urn}: 204, also for a post already deleted. */
export function deletePost(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const post = ctx.state.linkedin.posts.get(ctx.params.urn ?? '');
  if (post) {
    checkActor(ctx.state, caller, post.author, 'write');
    post.deleted = true;
  }
  return ctx.reply.status(204).send();
}
