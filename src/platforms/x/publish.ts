// x publishing (platforms/x.md §3–§4; DESIGN "Publishing and exactly once"): a target is a chain
// of posts — the post (or the first of threadItems), each further thread item replying to the one
// before, and the first comment replying to the first post. For each: its media uploaded (each
// media id saved as it comes), processed (STATUS polled: the runner is answered `processing`),
// alt texts set, then POST /2/tweets — which has no idempotency key, so it goes through
// createOnce: a marker first, and after a crash a look back through the account's posts, only
// when the operator allows X reads (X_READS=1), matching the text as X changes it; otherwise the interrupted post is unfindable and
// fails with the "may exist, not sent again" message rather than being sent twice.
import { createOnce, isWaiting } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { list, obj, str, text, type Json } from '../json.ts';
import { confirmedLook } from '../look-back.ts';
import type { MediaFetcher } from '../media-bytes.ts';
import { postUrl } from '../post-url.ts';
import { keepLiveUnits, processingDelay, progressNumber, progressUnits } from '../publisher.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { isDuplicate, xBody } from './errors.ts';
import { readXText } from './read-text.ts';
import { startTimeOf } from './start-time.ts';
import type { XOptions } from './options.ts';
import { setAltText, uploadMedia, uploadStatus } from './upload.ts';

const API = 'https://api.x.com/2';
/** About 15 minutes of STATUS checks before giving up on processing. */
const MAX_CHECKS = 20;
/** A media id this close to expiry is uploaded again rather than risked in a post. */
const EXPIRY_MARGIN_MS = 10 * 60_000;

export interface XUnit {
  text: string;
  mediaUrls: string[];
  altTexts: Array<string | null>;
  /** Index of the unit this one replies to; null for the first post. */
  replyTo: number | null;
  /** Keys of POST /2/tweets only the first post carries (poll, quote, reply settings, disclosures). */
  extra: Json;
}

interface MediaProgress {
  id: string;
  expiresAt: number;
  ready: boolean;
  alt?: true;
}

interface UnitProgress {
  media?: MediaProgress[];
  postId?: string;
}

/** The posts a target makes, from its validated options. */
export function xUnits(content: string, options: XOptions): XUnit[] {
  const extra: Json = {};
  if (options.poll) extra.poll = { options: options.poll.options, duration_minutes: options.poll.durationMinutes };
  if (options.quoteTweetId) extra.quote_tweet_id = options.quoteTweetId;
  if (options.replySettings && options.replySettings !== 'everyone') extra.reply_settings = options.replySettings;
  if (options.madeWithAi !== undefined) extra.made_with_ai = options.madeWithAi;
  if (options.paidPartnership !== undefined) extra.paid_partnership = options.paidPartnership;
  const unit = (body: string, urls: string[] | undefined, alts: Array<string | null> | undefined, replyTo: number | null, first: boolean): XUnit => ({
    text: body,
    mediaUrls: urls ?? [],
    altTexts: alts ?? (urls ?? []).map(() => null),
    replyTo,
    extra: first ? extra : {},
  });
  const units = options.threadItems
    ? options.threadItems.map((item, i) => unit(item.content, item.mediaUrls, item.altTexts, i === 0 ? null : i - 1, i === 0))
    : [unit(content, options.mediaUrls, options.altTexts, null, true)];
  if (options.firstComment) units.push(unit(options.firstComment, [], [], 0, false));
  return units;
}

export interface XPublishSettings {
  /** X_READS=1: the account's posts may be read (paid reads), so an interrupted post is looked for. */
  reads: boolean;
}

export function xPublisher(http: PlatformHttp, media: MediaFetcher | undefined, settings: XPublishSettings): Publisher<XOptions> {
  return {
    // A chain that failed part way keeps its live posts: published again, it goes on after them
    // (sending them again would post them twice, or be refused as duplicates). Uploaded media
    // may have expired, so the rest starts over.
    keepOnRetry: (progress) => keepLiveUnits<UnitProgress>(progress, (u) => !!u.postId, (u) => (u.postId ? { postId: u.postId } : {})),
    async publish(request: PublishRequest<XOptions>): Promise<PublishOutcome> {
      const { account, now, isTaken } = request;
      const token = account.accessToken;
      const progress: PublishProgress = { ...request.progress };
      const state = progressUnits<UnitProgress>(progress);
      const store = () => request.save(Object.assign(progress, { units: state }));
      const units = xUnits(request.content, request.options);

      for (const [i, unit] of units.entries()) {
        const done = state[i] ?? {};
        state[i] = done;
        if (done.postId) continue;
        const waiting = await prepareMedia(unit, done);
        if (waiting) return waiting;
        const replyTo = unit.replyTo === null ? null : (state[unit.replyTo]?.postId ?? null);
        if (unit.replyTo !== null && !replyTo) throw new PlatformError('permanent', 'the post this reply belongs to has no id; the rest of the chain was not posted', { platform: 'x' });
        const body: Json = { ...unit.extra };
        if (unit.text) body.text = unit.text;
        if (done.media?.length) body.media = { media_ids: done.media.map((m) => m.id) };
        if (replyTo) body.reply = { in_reply_to_tweet_id: replyTo };
        let lookedAndMissed = false;
        const result = await createOnce<string>(
          { platform: 'x', progress, store, now, inFlightMs: request.inFlightMs },
          {
            key: `post${i}`,
            make: async () => {
              try {
                const data = obj(xBody(await http.send('x', { method: 'POST', url: `${API}/tweets`, bearer: token, json: body }), now()).data);
                const id = str(data.id);
                if (!id) throw new PlatformError('transient', 'X answered the post without an id', { platform: 'x' });
                return id;
              } catch (error) {
                // Sent again after a look found nothing, X calls it a duplicate: the first one went through after all.
                if (lookedAndMissed && isDuplicate(error)) {
                  throw new PlatformError('permanent', 'the call that publishes this was cut off, and X now calls the same text a duplicate, so the post may exist; it was not sent again: check the account', { platform: 'x' });
                }
                throw error;
              }
            },
            find: async (since) => {
              const found = await findPost(http, token, account.platformUserId, unit.text, since, i === 0 ? isTaken : null, now());
              if (!found) lookedAndMissed = true;
              return found;
            },
            unfindable: settings.reads ? undefined : 'X reads are off (X_READS=0), so the account’s posts cannot be read back',
          },
        );
        if (isWaiting(result)) return result;
        done.postId = result;
        await store();
      }
      const rootId = state[0]?.postId ?? null;
      const url = rootId && account.username ? postUrl(http, `https://x.com/${account.username}/status/${rootId}`, 'https://x.com') : null;
      return { status: 'published', platformPostId: rootId, url };

      /** Uploads, waits for and describes the unit's media; a wait to hand back to the runner, or null when ready. */
      async function prepareMedia(unit: XUnit, done: UnitProgress): Promise<PublishOutcome | null> {
        if (unit.mediaUrls.length === 0) return null;
        done.media ??= [];
        for (const [j, url] of unit.mediaUrls.entries()) {
          const saved = done.media[j];
          if (saved && saved.expiresAt - EXPIRY_MARGIN_MS > now()) continue;
          if (!media) throw new PlatformError('not_supported', 'this service cannot fetch media for x uploads', { platform: 'x' });
          const uploaded = await uploadMedia(http, token, await media.fetch(url, 'x'), now);
          done.media[j] = { id: uploaded.id, expiresAt: uploaded.expiresAt, ready: uploaded.processing === null };
          progress.checks = 0;
          await store();
        }
        for (const [j, item] of done.media.entries()) {
          if (!item.ready) {
            const status = await uploadStatus(http, token, item.id, now());
            if (status.processing?.state === 'failed') {
              done.media.splice(j);
              await store();
              throw new PlatformError('invalid', `X could not process the media ${unit.mediaUrls[j] ?? ''}`, { platform: 'x', code: 'media-failed' });
            }
            if (status.processing) {
              const checks = progressNumber(progress, 'checks');
              if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'X did not finish processing the media in time', { platform: 'x' });
              progress.checks = checks + 1;
              await store();
              return { status: 'processing', checkAfterMs: Math.max(status.processing.checkAfterMs, processingDelay(checks)) };
            }
            item.ready = true;
            await store();
          }
          const alt = unit.altTexts[j];
          if (alt && !item.alt) {
            await setAltText(http, token, item.id, alt, now());
            item.alt = true;
            await store();
          }
        }
        return null;
      }
    },
  };
}

/**
 * The post an interrupted POST /2/tweets made: the earliest of the account's posts since `since`
 * whose text, as X answers it turned back into what was sent (comparableText), is the text sent.
 */
async function findPost(http: PlatformHttp, token: string, userId: string, sent: string, since: number, isTaken: ((id: string) => Promise<boolean>) | null, now: number): Promise<string | null> {
  const wanted = comparable(sent);
  const found = await confirmedLook<Json, string>(since, {
    page: async (cursor) => {
      const query = { start_time: startTimeOf(since), max_results: 100, 'tweet.fields': 'created_at,entities', exclude: 'retweets', ...(cursor ? { pagination_token: cursor } : {}) };
      const body = xBody(await http.send('x', { url: `${API}/users/${userId}/tweets`, query, bearer: token }), now);
      return { items: list(body.data).map(obj), next: str(obj(body.meta).next_token) };
    },
    madeAt: (post) => {
      const at = Date.parse(text(post.created_at));
      return Number.isNaN(at) ? null : at;
    },
    matches: async (post) => {
      const id = str(post.id);
      return !!id && comparableText(post) === wanted && !(isTaken && (await isTaken(id)));
    },
  });
  return found ? str(found.id) : null;
}

/** A media entity's link: X's link to the post's own photo or video page. */
const isMediaLink = (url: Json): boolean => !!str(url.media_key) || /\/status\/\d+\/(?:photo|video)\/\d+$/u.test(text(url.expanded_url));

/** A text reduced to what survives X's changes: NFC, links without their scheme (X adds `http://` to a bare host), trimmed. */
const comparable = (value: string): string => value.normalize('NFC').replace(/\bhttps?:\/\//giu, '').trim();

/**
 * A post's text as it was sent, from X's answer (platforms/x.md §11): the t.co link of its media
 * dropped, the other t.co links replaced by the URLs they stand for, and `&amp;`, `&lt;`, `&gt;`
 * read back (X answers text HTML-escaped); then made comparable.
 */
export function comparableText(post: Json): string {
  const urls = list(obj(post.entities).urls).map(obj);
  const linked = urls.reduce<string>((t, u) => t.replace(text(u.url), isMediaLink(u) ? '' : text(u.expanded_url) || text(u.url)), text(post.text));
  return comparable(readXText(linked));
}
