// Threads publishing (platforms.md §4.2–4.3): every post is a container, checked until FINISHED,
// then published with threads_publish. A target publishes a chain of units: the root post
// (or the first of threadItems), the other threadItems each replying to the one before, and the
// first comment replying to the root. Each container id and each published id is saved before
// the next call, so a resumed attempt never creates or publishes a unit twice; a container
// found published whose media id was never saved has that id read back from the user's posts.
import type { ThreadsOptions } from './options.ts';
import type { PlatformHttp } from '../http.ts';
import { CLOCK_SKEW_MS } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import { obj, strings, text, type Json } from '../json.ts';
import { lookBack } from '../look-back.ts';
import { graphLook } from '../meta/graph-look.ts';
import { postUrl } from '../post-url.ts';
import { keepLiveUnits, processingDelay, progressNumber, progressUnits } from '../publisher.ts';
import type { PublishOutcome, PublishRequest, Publisher } from '../types.ts';
import { graphBody } from '../meta/errors.ts';
import { earlierPublishRunning, publishMarked, type PublishMark } from '../meta/container-publish.ts';

const GRAPH = 'https://graph.threads.net/v1.0';
/** About 15 minutes of checks (1, 2, 4 … 60 s) before giving up on processing. */
const MAX_CHECKS = 20;

export interface ThreadsUnit {
  text: string;
  mediaType: 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
  mediaUrls: string[];
  altTexts: Array<string | null>;
  /** Index of the unit this one replies to; null for the root. */
  replyTo: number | null;
  topicTag?: string | undefined;
  replyControl?: string | undefined;
  linkAttachment?: string | undefined;
}

interface UnitProgress extends PublishMark {
  children?: string[];
  container?: string;
  /** When the container was made (the delivery's clock): a lost media id is looked for from then on. */
  createdAt?: number;
  /** Looks for a lost media id so far. */
  looks?: number;
  /** Published media id; null when it was published but the id could not be found again. */
  mediaId?: string | null;
}

/** A published container whose id was lost is looked for this many times, LOOK_EVERY_MS apart. */
const MAX_LOOKS = 6;
const LOOK_EVERY_MS = 10_000;
/** Containers live 24 hours: nothing older can be the one published. */
const CONTAINER_LIFETIME_MS = 86_400_000;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The units of a target, from its validated options (see validate.ts). */
export function threadsUnits(content: string, options: Record<string, unknown>): ThreadsUnit[] {
  const shared = { topicTag: str(options.topicTag), replyControl: str(options.replyControl) };
  const items = Array.isArray(options.threadItems) ? (options.threadItems as Array<Record<string, unknown>>) : null;
  const units: ThreadsUnit[] = items
    ? items.map((item, i) => ({ ...unitOf(text(item.content), item), replyTo: i === 0 ? null : i - 1, ...(i === 0 ? shared : {}) }))
    : [{ ...unitOf(content, options), replyTo: null, ...shared, linkAttachment: str(options.linkAttachment) }];
  const firstComment = str(options.firstComment);
  if (firstComment) units.push({ text: firstComment, mediaType: 'TEXT', mediaUrls: [], altTexts: [], replyTo: 0 });
  return units;
}

function unitOf(text: string, source: Record<string, unknown>): Omit<ThreadsUnit, 'replyTo'> {
  const mediaUrls = strings(source.mediaUrls);
  const mediaType = (str(source.mediaType) ?? 'TEXT') as ThreadsUnit['mediaType'];
  const altTexts = Array.isArray(source.altTexts) ? (source.altTexts as unknown[]).map((a) => str(a) ?? null) : mediaUrls.map(() => str(source.altText) ?? null);
  return { text, mediaType, mediaUrls, altTexts };
}

const isVideo = (url: string) => /\.(mp4|mov)(\?|$)/i.test(url);

export function threadsPublisher(http: PlatformHttp): Publisher<ThreadsOptions> {
  return {
    // A chain that failed part way keeps its published posts: published again, it goes on after
    // them instead of posting them twice. Containers expire, so the rest starts over.
    keepOnRetry: (progress) => keepLiveUnits<UnitProgress>(progress, (u) => !!u.mediaId, (u) => (u.mediaId ? { mediaId: u.mediaId } : {})),
    async publish(request: PublishRequest<ThreadsOptions>): Promise<PublishOutcome> {
      const { account, progress, save } = request;
      const call = async (method: 'GET' | 'POST', path: string, form?: Record<string, string | undefined>) => {
        return graphBody('threads', await http.send('threads', { method, url: `${GRAPH}${path}`, bearer: account.accessToken, ...(form ? { form } : {}) }));
      };
      const user = account.platformUserId;
      const units = threadsUnits(request.content, request.options);
      const state = progressUnits<UnitProgress>(progress);
      const current = { ...progress };
      const store = async (extra: Record<string, unknown> = {}) => save(Object.assign(current, extra, { units: state }));

      for (const [i, unit] of units.entries()) {
        const done = state[i] ?? {};
        state[i] = done;
        if (done.mediaId !== undefined) continue;
        const replyTo = unit.replyTo === null ? undefined : (state[unit.replyTo]?.mediaId ?? undefined);
        if (unit.replyTo !== null && !replyTo) {
          throw new PlatformError('permanent', 'the post this reply belongs to was published, but its id was lost; the rest of the chain was not posted', { platform: 'threads' });
        }
        if (!done.container) {
          const common = { reply_to_id: replyTo, reply_control: unit.replyControl, topic_tag: unit.topicTag };
          if (unit.mediaType === 'CAROUSEL') {
            done.children ??= [];
            for (const [j, url] of unit.mediaUrls.entries()) {
              if (done.children[j]) continue;
              const child = await call('POST', `/${user}/threads`, { ...mediaParams(url, unit.altTexts[j]), is_carousel_item: 'true' });
              done.children[j] = String(child.id);
              await store();
            }
            done.container = String((await call('POST', `/${user}/threads`, { media_type: 'CAROUSEL', children: done.children.join(','), text: unit.text || undefined, ...common })).id);
          } else if (unit.mediaType === 'TEXT') {
            done.container = String((await call('POST', `/${user}/threads`, { media_type: 'TEXT', text: unit.text, link_attachment: unit.linkAttachment, ...common })).id);
          } else {
            const url = unit.mediaUrls[0] ?? '';
            done.container = String((await call('POST', `/${user}/threads`, { ...mediaParams(url, unit.altTexts[0], unit.mediaType), text: unit.text || undefined, ...common })).id);
          }
          done.createdAt = request.now();
          await store({ checks: 0 });
        }
        const running = earlierPublishRunning(done, request.now(), request.inFlightMs);
        if (running) return running;
        const status = await call('GET', `/${done.container}?fields=id,status,error_message`);
        switch (status.status) {
          case 'IN_PROGRESS': {
            const checks = progressNumber(current, 'checks');
            if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'Threads did not finish processing the media in time', { platform: 'threads' });
            await store({ checks: checks + 1 });
            return { status: 'processing', checkAfterMs: processingDelay(checks) };
          }
          case 'ERROR':
            throw new PlatformError('invalid', `Threads could not process the media: ${text(status.error_message) || 'UNKNOWN'}`, { platform: 'threads', code: text(status.error_message) || 'UNKNOWN' });
          case 'EXPIRED':
            delete done.container;
            delete done.children;
            await store();
            throw new PlatformError('transient', 'the media container expired before it was published', { platform: 'threads' });
          case 'PUBLISHED': {
            // Published by an attempt that died before storing the id: never publish it again,
            // read the id back instead (the user's posts or replies, by text and time).
            const since = (done.createdAt ?? request.now() - CONTAINER_LIFETIME_MS) - CLOCK_SKEW_MS;
            const found = await findPublished(call, user, unit, replyTo, since, i === 0 ? request.isTaken : null);
            if (!found && (done.looks ?? 0) + 1 < MAX_LOOKS) {
              done.looks = (done.looks ?? 0) + 1;
              await store();
              return { status: 'processing', checkAfterMs: LOOK_EVERY_MS };
            }
            done.mediaId = found;
            await store();
            continue;
          }
          default:
            break;
        }
        const container = done.container;
        const published = await publishMarked(done, store, request.now(), () => call('POST', `/${user}/threads_publish`, { creation_id: container }));
        done.mediaId = String(published.id);
        await store({ checks: 0 });
      }
      const rootId = state[0]?.mediaId ?? null;
      let url: string | null = null;
      if (rootId) url = postUrl(http, str((await call('GET', `/${rootId}?fields=id,permalink`)).permalink), 'https://www.threads.net');
      return { status: 'published', platformPostId: rootId, url };
    },
  };
}

/**
 * The media a lost publish made: the earliest of the user's posts (root) or replies since `since`
 * with this text and parent, paging back (look-back.ts). A look that stops at its bound answers
 * nothing found: the container published once, so at worst the id stays unknown.
 */
async function findPublished(
  call: (method: 'GET' | 'POST', path: string) => Promise<Record<string, unknown>>,
  user: string,
  unit: ThreadsUnit,
  replyTo: string | undefined,
  since: number,
  isTaken: ((id: string) => Promise<boolean>) | null,
): Promise<string | null> {
  const edge = unit.replyTo === null ? 'threads' : 'replies';
  const read = (params: Record<string, string | number>) => call('GET', `/${user}/${edge}?${new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))).toString()}`);
  const matches = async (item: Json) => {
    const id = text(item.id);
    if (!id || (str(item.text) ?? '') !== unit.text) return false;
    if (replyTo !== undefined && text(obj(item.replied_to).id) !== replyTo) return false;
    return !(isTaken && (await isTaken(id)));
  };
  const { found } = await lookBack(since, graphLook(read, { fields: 'id,text,timestamp,replied_to', since: Math.floor(since / 1000) }, 'timestamp', matches));
  return found ? text(found.id) : null;
}

function mediaParams(url: string, altText: string | null | undefined, type?: string): Record<string, string | undefined> {
  const video = type ? type === 'VIDEO' : isVideo(url);
  return video ? { media_type: 'VIDEO', video_url: url, alt_text: altText ?? undefined } : { media_type: 'IMAGE', image_url: url, alt_text: altText ?? undefined };
}
