// LinkedIn publishing (DESIGN "More platforms", Publishing and exactly once; linkedin.md §4, §6):
// each media file is uploaded with the author as owner and its URN saved before anything else;
// once LinkedIn reports every asset AVAILABLE, `POST /rest/posts` is made through createOnce (no
// idempotency key at LinkedIn). After a cut-off call an organization's posts are looked through
// (q=author, newest first) for the commentary; a member's own posts cannot be read without the
// restricted r_member_social, so theirs fails with the "cannot be checked" message. When the post
// is published again, a 422 DUPLICATE_POST naming a post no other target holds is adopted. The
// first comment follows the same way. A 429 waits for LinkedIn's daily reset at 00:00 UTC.
import { createOnce, isWaiting } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import { list, numberOf, obj, text, type Json } from '../json.ts';
import { confirmedLook } from '../look-back.ts';
import type { MediaFetcher } from '../media-bytes.ts';
import { postUrl } from '../post-url.ts';
import { processingDelay, progressNumber } from '../publisher.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { urnPath, type LinkedInApi } from './api.ts';
import { escapeLittleText } from './little-text.ts';
import type { LinkedInOptions } from './options.ts';
import { linkedinUploader, type AssetKind } from './upload.ts';

/** About 15 minutes of checks (1, 2, 4 … 60 s) for LinkedIn's media processing. */
const MAX_CHECKS = 20;
const PAGE = 50;
const DAY_MS = 86_400_000;
const MEMBER_UNFINDABLE = "reading a member's own posts needs LinkedIn's restricted r_member_social permission";

/** ms until the next 00:00 UTC, when LinkedIn's daily limits reset (linkedin.md §9). */
export const untilUtcMidnight = (now: number): number => DAY_MS - (now % DAY_MS);

export const isOrganizationUrn = (urn: string): boolean => urn.startsWith('urn:li:organization:');

export const linkedinPostUrl = (api: LinkedInApi, urn: string): string | null => postUrl(api.http, `https://www.linkedin.com/feed/update/${urn}/`, 'https://www.linkedin.com');

interface Media {
  kind: AssetKind;
  url: string;
  field: string;
}

function mediaOf(options: LinkedInOptions): Media[] {
  const kind: AssetKind = options.mediaType === 'VIDEO' ? 'video' : options.mediaType === 'DOCUMENT' ? 'document' : 'image';
  const items = (options.mediaUrls ?? []).map((url, i) => ({ kind, url, field: `mediaUrls[${i}]` }));
  if (options.article?.thumbnailUrl) items.push({ kind: 'image', url: options.article.thumbnailUrl, field: 'article.thumbnailUrl' });
  return items;
}

function contentOf(options: LinkedInOptions, assets: string[]): Json | undefined {
  const alt = (i: number) => options.altTexts?.[i] ?? undefined;
  if (options.article) {
    const thumbnail = options.mediaUrls?.length ? undefined : assets[0];
    return { article: { source: options.article.url, title: options.article.title, ...(options.article.description ? { description: options.article.description } : {}), ...(thumbnail ? { thumbnail } : {}) } };
  }
  if (!assets.length) return undefined;
  if (options.mediaType === 'IMAGE' && assets.length > 1) return { multiImage: { images: assets.map((id, i) => ({ id, ...(alt(i) ? { altText: alt(i) } : {}) })) } };
  const id = assets[0] ?? '';
  if (options.mediaType === 'IMAGE') return { media: { id, ...(alt(0) ? { altText: alt(0) } : {}) } };
  return { media: { id, ...(options.title ? { title: options.title } : {}) } };
}

/** Whether the progress holds a call that the user chose to make again (publish after a failure). */
function resent(progress: PublishProgress, key: string): boolean {
  const inflight = obj(progress.inflight);
  return [inflight[key], inflight['*']].some((m) => obj(m).retry === true);
}

/** The URN a 422 DUPLICATE_POST names, if that is what the error is. */
function duplicateOf(error: unknown): string | null {
  if (!(error instanceof PlatformError) || error.details.code !== 'DUPLICATE_POST') return null;
  return /urn:li:(?:share|ugcPost):\d+/.exec(error.message)?.[0] ?? null;
}

export function linkedinPublisher(api: LinkedInApi, media: MediaFetcher | undefined): Publisher<LinkedInOptions> {
  const uploader = linkedinUploader(api, media);
  return {
    async publish(request: PublishRequest<LinkedInOptions>): Promise<PublishOutcome> {
      try {
        return await publishTarget(api, uploader, request);
      } catch (error) {
        if (error instanceof PlatformError && error.kind === 'rate_limited' && error.details.retryAfterMs === undefined) {
          throw new PlatformError('rate_limited', `${error.message}; retried after 00:00 UTC`, { ...error.details, retryAfterMs: untilUtcMidnight(request.now()) });
        }
        throw error;
      }
    },
  };
}

async function publishTarget(api: LinkedInApi, uploader: ReturnType<typeof linkedinUploader>, request: PublishRequest<LinkedInOptions>): Promise<PublishOutcome> {
  const { account, options, progress } = request;
  const token = account.accessToken;
  const author = account.platformUserId;
  const organization = isOrganizationUrn(author);
  const current: PublishProgress = { ...progress };
  const store = () => request.save(current);
  if (options.visibility === 'CONNECTIONS' && organization) {
    throw new PlatformError('invalid', 'platformSpecificData.visibility: CONNECTIONS is for person accounts only', { platform: 'linkedin' });
  }

  if (typeof current.post !== 'string') {
    const items = mediaOf(options);
    const assets = list(current.assets).map(text);
    for (const [i, item] of items.entries()) {
      if (assets[i]) continue;
      assets[i] = await uploader.upload(item.kind, item.url, author, token);
      current.assets = assets;
      await store();
    }
    for (const [i, item] of items.entries()) {
      const status = await uploader.status(item.kind, assets[i] ?? '', token);
      if (status === 'AVAILABLE') continue;
      if (status === 'PROCESSING_FAILED') throw new PlatformError('invalid', `LinkedIn could not process ${item.field} (${item.url})`, { platform: 'linkedin', code: status });
      const checks = progressNumber(current, 'checks');
      if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'LinkedIn did not finish processing the media in time', { platform: 'linkedin' });
      current.checks = checks + 1;
      await store();
      return { status: 'processing', checkAfterMs: processingDelay(checks) };
    }
    const commentary = escapeLittleText(request.content);
    const content = contentOf(options, assets);
    const body = {
      author,
      commentary,
      visibility: options.visibility ?? 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      ...(content ? { content } : {}),
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: options.disableReshare ?? false,
    };
    const again = resent(current, 'post');
    const made = await createOnce<string>(
      { platform: 'linkedin', progress: current, store, now: request.now, inFlightMs: request.inFlightMs },
      {
        key: 'post',
        async make() {
          try {
            const response = await api.rest({ method: 'POST', path: '/posts', token, json: body });
            const urn = response.headers.get('x-restli-id');
            if (!urn) throw new PlatformError('permanent', 'LinkedIn created the post without naming it', { platform: 'linkedin' });
            return urn;
          } catch (error) {
            // Published again after a cut-off call: LinkedIn's duplicate is the first post.
            const duplicate = again ? duplicateOf(error) : null;
            if (duplicate && !(await request.isTaken(duplicate))) return duplicate;
            throw error;
          }
        },
        find: (since) => findPost(api, token, author, commentary, since, request.isTaken),
        unfindable: organization ? undefined : MEMBER_UNFINDABLE,
      },
    );
    if (isWaiting(made)) return made;
    current.post = made;
    delete current.checks;
    await store();
  }
  const urn = text(current.post);

  if (options.firstComment && current.comment === undefined) {
    const message = escapeLittleText(options.firstComment);
    const comment = await createOnce<string>(
      { platform: 'linkedin', progress: current, store, now: request.now, inFlightMs: request.inFlightMs },
      {
        key: 'comment',
        async make() {
          const response = await api.rest({ method: 'POST', path: `/socialActions/${urnPath(urn)}/comments`, token, json: { actor: author, object: urn, message: { text: message } } });
          return response.headers.get('x-restli-id') ?? text(obj(response.body).$URN);
        },
        find: (since) => findComment(api, token, urn, author, message, since),
        unfindable: organization ? undefined : "reading comments on a member's post needs LinkedIn's restricted r_member_social permission",
      },
    );
    if (isWaiting(comment)) return comment;
    current.comment = comment;
    await store();
  }
  return { status: 'published', platformPostId: urn, url: linkedinPostUrl(api, urn) };
}

/** The organization's post an interrupted call made: its commentary, created since `since`. */
async function findPost(api: LinkedInApi, token: string, author: string, commentary: string, since: number, isTaken: (id: string) => Promise<boolean>): Promise<string | null> {
  const found = await confirmedLook<Json, number>(since, {
    page: async (start) => {
      const body = await api.restJson({ path: '/posts', token, query: { q: 'author', author, sortBy: 'CREATED', start: start ?? 0, count: PAGE } });
      const items = list(body.elements).map(obj);
      return { items, next: items.length === PAGE ? (start ?? 0) + PAGE : null };
    },
    madeAt: (item) => numberOf(item.createdAt),
    matches: async (item) => text(item.commentary) === commentary && !(await isTaken(text(item.id))),
  });
  return found ? text(found.id) : null;
}

async function findComment(api: LinkedInApi, token: string, urn: string, actor: string, message: string, since: number): Promise<string | null> {
  const body = await api.restJson({ path: `/socialActions/${urnPath(urn)}/comments`, token, query: { start: 0, count: 100 } });
  const found = list(body.elements)
    .map(obj)
    .find((c) => text(c.actor) === actor && text(obj(c.message).text) === message && (numberOf(obj(c.created).time) ?? since) >= since);
  return found ? text(found.$URN) || text(found.id) : null;
}

