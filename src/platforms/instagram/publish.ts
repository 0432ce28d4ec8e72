// Instagram publishing (platforms.md §2.3–2.4, §12) on either host: graph.facebook.com for
// accounts connected with Facebook Login (metadata.login "facebook", a Page token), and
// graph.instagram.com for Instagram Login. Every post is a container: carousel items first,
// then the post's container, checked until FINISHED, then media_publish. Each container id is
// saved before the next call and the media id right after media_publish, so a resumed attempt
// never makes a second container or publishes twice. After publishing: the permalink, the
// first comment, then comments turned off (in that order, or the comment could not be made).
import type { InstagramOptions } from './options.ts';
import { CLOCK_SKEW_MS } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { FACEBOOK_GRAPH } from '../meta/graph.ts';
import { str, type Json } from '../json.ts';
import { confirmedLook, lookBack } from '../look-back.ts';
import { graphLook } from '../meta/graph-look.ts';
import { containerFailure } from '../meta/errors.ts';
import { earlierPublishRunning, publishMarked } from '../meta/container-publish.ts';
import { followUp, graphCaller, type GraphCall } from '../meta/publish-steps.ts';
import { postUrl } from '../post-url.ts';
import { processingDelay, progressNumber } from '../publisher.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { INSTAGRAM_GRAPH } from './instagram-login.ts';
import { carouselParams, itemParams, kindOf, singleParams } from './publish-params.ts';

/** About 15 minutes of checks (1, 2, 4 … 60 s) per attempt before giving up on processing. */
const MAX_CHECKS = 20;
/** A published container whose media id was lost is looked for this many times, LOOK_EVERY_MS apart. */
const MAX_LOOKS = 6;
const LOOK_EVERY_MS = 10_000;
/** Containers live 24 hours: nothing older can be the one published. */
const CONTAINER_LIFETIME_MS = 86_400_000;
/** Errors of media_publish after which the container cannot be used again (§2.4): make a new one. */
const RENEW_CONTAINER = new Set([2207008, 2207020, 2207053]);

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '')) : []);

export const instagramHost = (metadata: Record<string, unknown>): string => (metadata.login === 'facebook' ? FACEBOOK_GRAPH : INSTAGRAM_GRAPH);

export function instagramPublisher(http: PlatformHttp): Publisher<InstagramOptions> {
  return {
    async publish({ account, content, options, progress: saved, save, now, inFlightMs, isTaken }: PublishRequest<InstagramOptions>): Promise<PublishOutcome> {
      const progress: PublishProgress = { ...saved };
      const store = () => save(progress);
      const call = graphCaller(http, 'instagram', instagramHost(account.metadata), account.accessToken);
      const kind = kindOf(options);

      if (progress.mediaId === undefined) {
        const container = str(progress.container) ?? (await createContainer(call, account.platformUserId, content, options, progress, store, now));
        const running = earlierPublishRunning(progress, now(), inFlightMs);
        if (running) return running;
        const status = await call('GET', `/${container}`, { fields: 'status_code,status' });
        switch (status.status_code) {
          case 'FINISHED':
            break;
          case 'PUBLISHED': {
            // Published by an attempt that died before saving the media id: never publish again;
            // read the id back from the account's media (or stories), by caption and time.
            const createdAt = typeof progress.containerAt === 'number' ? progress.containerAt : now() - CONTAINER_LIFETIME_MS;
            const found = await findPublished(call, account.platformUserId, kind === 'STORIES', content, createdAt - CLOCK_SKEW_MS, isTaken);
            const looks = progressNumber(progress, 'looks');
            if (!found && looks + 1 < MAX_LOOKS) {
              progress.looks = looks + 1;
              await store();
              return { status: 'processing', checkAfterMs: LOOK_EVERY_MS };
            }
            progress.mediaId = found;
            await store();
            break;
          }
          case 'ERROR': {
            const failure = containerFailure(str(status.status) ?? '');
            if (failure.retryable) await forgetContainer(progress, store);
            throw failure;
          }
          case 'EXPIRED':
            await forgetContainer(progress, store);
            throw new PlatformError('transient', 'the media container expired before it was published; a new one is made on retry', { platform: 'instagram' });
          default: {
            // IN_PROGRESS: wait and check again.
            const checks = progressNumber(progress, 'checks');
            progress.checks = checks >= MAX_CHECKS ? 0 : checks + 1;
            await store();
            if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'Instagram did not finish processing the media in time', { platform: 'instagram' });
            return { status: 'processing', checkAfterMs: processingDelay(checks) };
          }
        }
        if (progress.mediaId === undefined) {
          try {
            const published = await publishMarked(progress, store, now(), () => call('POST', `/${account.platformUserId}/media_publish`, { creation_id: container }));
            progress.mediaId = str(published.id);
          } catch (error) {
            if (error instanceof PlatformError && RENEW_CONTAINER.has(Number(error.details.subcode))) await forgetContainer(progress, store);
            throw error;
          }
          await store();
        }
      }

      const mediaId = str(progress.mediaId);
      if (!mediaId) return { status: 'published', platformPostId: null, url: null };
      await followUp(progress, save, 'permalink', async () => str((await call('GET', `/${mediaId}`, { fields: 'id,permalink' })).permalink) ?? true);
      const comment = str(options.firstComment);
      if (comment && kind !== 'STORIES') {
        const waiting = await followUp(progress, save, 'firstComment', async () => str((await call('POST', `/${mediaId}/comments`, { message: comment })).id) ?? true, {
          ctx: { platform: 'instagram', progress, store, now, inFlightMs },
          find: (since) => findOwnComment(call, mediaId, account.username, comment, since),
        });
        if (waiting) return waiting;
      }
      if (options.commentsEnabled === false && kind !== 'STORIES') {
        await followUp(progress, save, 'commentsOff', async () => (await call('POST', `/${mediaId}`, { comment_enabled: 'false' }), true));
      }
      const permalink = (progress.followUps as Record<string, { done?: unknown }> | undefined)?.permalink?.done;
      return { status: 'published', platformPostId: mediaId, url: postUrl(http, typeof permalink === 'string' ? permalink : null, 'https://www.instagram.com') };
    },
  };
}

/** Carousel items (each saved as it is made), then the post's container, saved. */
async function createContainer(call: GraphCall, user: string, content: string, options: Record<string, unknown>, progress: PublishProgress, store: () => Promise<void>, now: () => number): Promise<string> {
  let params;
  if (kindOf(options) === 'CAROUSEL') {
    const urls = strings(options.mediaUrls);
    const children = strings(progress.children);
    progress.children = children;
    for (const index of urls.keys()) {
      if (children[index]) continue;
      children[index] = str((await call('POST', `/${user}/media`, itemParams(options, index, progress.mediaKinds))).id) ?? '';
      await store();
    }
    params = carouselParams(content, options, children);
  } else {
    params = singleParams(content, options, progress.mediaKinds);
  }
  const id = str((await call('POST', `/${user}/media`, params)).id);
  if (!id) throw new PlatformError('transient', 'Instagram answered the container request without an id', { platform: 'instagram' });
  progress.container = id;
  progress.containerAt = now();
  progress.checks = 0;
  await store();
  return id;
}

/**
 * The media a lost media_publish made: the earliest of the account's media (or stories) with this
 * caption made since `since`, paging back (look-back.ts). A look that stops at its bound answers
 * nothing found: the container published once, so at worst the id stays unknown.
 */
async function findPublished(call: GraphCall, user: string, story: boolean, caption: string, since: number, isTaken: (id: string) => Promise<boolean>): Promise<string | null> {
  const matches = async (item: Json) => {
    const id = str(item.id);
    return id !== null && (story || (str(item.caption) ?? '') === caption) && !(await isTaken(id));
  };
  const read = (params: Record<string, string | number>) => call('GET', `/${user}/${story ? 'stories' : 'media'}`, params);
  const { found } = await lookBack(since, graphLook(read, { fields: 'id,caption,timestamp', since: Math.floor(since / 1000) }, 'timestamp', matches));
  return found ? str(found.id) : null;
}

/** The container can no longer be published (expired, failed upload): the retry makes new ones. */
async function forgetContainer(progress: PublishProgress, store: () => Promise<void>): Promise<void> {
  delete progress.container;
  delete progress.children;
  progress.checks = 0;
  await store();
}

/** A comment the account made on its media with this text, since `since` (comments come newest first, 50 a page). */
async function findOwnComment(call: GraphCall, mediaId: string, username: string | null, text: string, since: number): Promise<string | null> {
  const matches = (item: Json) => str(item.text) === text && str(item.username) === username && str(item.id) !== null;
  const read = (params: Record<string, string | number>) => call('GET', `/${mediaId}/comments`, params);
  const found = await confirmedLook(since, graphLook(read, { fields: 'id,text,username,timestamp', limit: 50 }, 'timestamp', matches));
  return found ? str(found.id) : null;
}
