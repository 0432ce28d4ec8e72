// TikTok direct posts pulled from URL (platforms.md §5.2–5.5): creator info first (the privacy
// level and interaction settings must be ones the creator allows), then the init call, whose
// publish_id is saved before anything else, then status checks until PUBLISH_COMPLETE. A resumed
// attempt with a saved publish_id only checks status: it never initialises a second post. The
// init itself is made once (create-once.ts): an interrupted init is looked for among the
// creator's published posts (video.list) until TikTok has had time to process it.
import type { TiktokOptions } from './options.ts';
import { createOnce, isWaiting } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { postUrl } from '../post-url.ts';
import { processingDelay, progressNumber, progressString } from '../publisher.ts';
import { list, obj, str, strings, text } from '../json.ts';
import { confirmedLook } from '../look-back.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { tiktokFailure, tiktokPublishError } from './errors.ts';

const API = 'https://open.tiktokapis.com';
const TIKTOK_SITE = 'https://www.tiktok.com';
const MAX_CHECKS = 20;

const flag = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);

function invalid(message: string): PlatformError {
  return new PlatformError('invalid', message, { platform: 'tiktok' });
}

/** Checks the target's settings against creator_info (§5.2). */
function checkCreator(data: Record<string, unknown>, options: Record<string, unknown>, photo: boolean): void {
  const privacy = String(options.privacyLevel);
  const allowed = strings(data.privacy_level_options);
  if (!allowed.includes(privacy)) throw invalid(`privacyLevel ${privacy} is not one of this creator's options (${allowed.join(', ')})`);
  const interactions: Array<[string, string]> = [['disableComment', 'comment_disabled'], ...(photo ? [] : ([['disableDuet', 'duet_disabled'], ['disableStitch', 'stitch_disabled']] as Array<[string, string]>))];
  for (const [option, setting] of interactions) {
    if (options[option] === false && data[setting] === true) throw invalid(`${option}: false is not possible, the creator has turned this interaction off in TikTok`);
  }
  if (options.brandContent === true && privacy === 'SELF_ONLY') throw invalid('brandContent cannot be posted with privacyLevel SELF_ONLY');
}

/** A post found on the creator's profile: published, with its public id and link. */
interface Found {
  postId: string;
  url: string | null;
}

/**
 * `settleMs`: how long TikTok may take to process a post before it is listed (video.list shows
 * only published posts), so an interrupted init that is not listed yet is not sent again.
 */
export function tiktokPublisher(http: PlatformHttp, settleMs: number): Publisher<TiktokOptions> {
  return {
    async publish({ account, content, options, progress: saved, save, now, inFlightMs, isTaken }: PublishRequest<TiktokOptions>): Promise<PublishOutcome> {
      const progress: PublishProgress = { ...saved };
      const call = async (path: string, json?: unknown) => {
        const res = await http.send('tiktok', { method: 'POST', url: `${API}${path}`, bearer: account.accessToken, json: json ?? {} });
        const body = obj(res.body);
        if (res.status !== 200 || str(obj(body.error).code) !== 'ok') throw tiktokPublishError(res.status, res.body);
        return obj(body.data);
      };
      const photo = options.mediaType === 'image';
      let publishId = progressString(progress, 'publishId');
      if (!publishId) {
        // The init call starts the post at once (PULL_FROM_URL, DIRECT_POST): made once, an
        // interrupted one looked for on the creator's profile (create-once.ts).
        const made = await createOnce<string | Found>(
          { platform: 'tiktok', progress, store: () => save(progress), now, inFlightMs },
          {
            key: 'init',
            make: () => init(),
            find: (since) => findPost(since),
            settleMs,
            lookEveryMs: 10_000,
            unfindable: options.privacyLevel === 'SELF_ONLY' ? 'video.list shows only public posts, and this one is SELF_ONLY' : undefined,
          },
        );
        if (isWaiting(made)) return made;
        if (typeof made !== 'string') {
          await save({ ...progress, adopted: made.postId });
          return { status: 'published', platformPostId: made.postId, url: postUrl(http, made.url, TIKTOK_SITE) };
        }
        publishId = made;
        await save({ ...progress, publishId, checks: 0 });
      }
      return checkStatus(publishId);

      async function findPost(since: number): Promise<Found | null> {
        const caption = photo ? text(options.title) : content;
        // video.list pages back with `cursor` (the last page's create time, ms) while has_more.
        const found = await confirmedLook<Record<string, unknown>, number>(since, {
          page: async (cursor) => {
            const data = await call('/v2/video/list/?fields=id,title,video_description,create_time,share_url', { max_count: 20, ...(cursor === null ? {} : { cursor }) });
            const next = data.has_more === true && typeof data.cursor === 'number' ? data.cursor : null;
            return { items: list(data.videos).map(obj), next };
          },
          madeAt: (video) => (typeof video.create_time === 'number' ? video.create_time * 1000 : null),
          matches: async (video) => {
            const id = text(video.id);
            const same = photo ? text(video.video_description) === content && text(video.title) === caption : text(video.title) === content || text(video.video_description) === content;
            return id !== '' && same && !(await isTaken(id));
          },
        });
        return found ? { postId: text(found.id), url: text(found.share_url) || null } : null;
      }

      async function init(): Promise<string> {
        checkCreator(await call('/v2/post/publish/creator_info/query/'), options, photo);
        const common = {
          privacy_level: options.privacyLevel,
          disable_comment: flag(options.disableComment, true),
          brand_content_toggle: flag(options.brandContent, false),
          brand_organic_toggle: flag(options.brandOrganic, false),
        };
        const urls = strings(options.mediaUrls);
        const data = photo
          ? await call('/v2/post/publish/content/init/', {
              post_info: { ...common, title: text(options.title), description: content, auto_add_music: flag(options.autoAddMusic, false) },
              source_info: { source: 'PULL_FROM_URL', photo_images: urls, photo_cover_index: typeof options.photoCoverIndex === 'number' ? options.photoCoverIndex : 0 },
              post_mode: 'DIRECT_POST',
              media_type: 'PHOTO',
            })
          : await call('/v2/post/publish/video/init/', {
              post_info: {
                ...common,
                title: content,
                disable_duet: flag(options.disableDuet, true),
                disable_stitch: flag(options.disableStitch, true),
                ...(typeof options.videoCoverTimestampMs === 'number' ? { video_cover_timestamp_ms: options.videoCoverTimestampMs } : {}),
                ...(typeof options.isAigc === 'boolean' ? { is_aigc: options.isAigc } : {}),
              },
              source_info: { source: 'PULL_FROM_URL', video_url: urls[0] ?? '' },
            });
        const id = text(data.publish_id);
        if (!id) throw new PlatformError('transient', 'TikTok answered without a publish_id', { platform: 'tiktok' });
        return id;
      }

      async function checkStatus(publishId: string): Promise<PublishOutcome> {
        const status = await call('/v2/post/publish/status/fetch/', { publish_id: publishId });
        switch (status.status) {
          case 'PUBLISH_COMPLETE':
          case 'SEND_TO_USER_INBOX': {
            // Public ids are int64s: the HTTP client reads them as strings (quoteBigIntegers, http.ts).
            const [postId] = Array.isArray(status.publicaly_available_post_id) ? status.publicaly_available_post_id.map(String) : [];
            if (!postId) return { status: 'published', platformPostId: publishId, url: null };
            const handle = account.username ? `@${account.username}` : '@';
            return { status: 'published', platformPostId: postId, url: postUrl(http, `${TIKTOK_SITE}/${handle}/${photo ? 'photo' : 'video'}/${postId}`, TIKTOK_SITE) };
          }
          case 'FAILED':
            // Nothing was posted: a retry starts a new publish rather than re-reading this one.
            await save({});
            throw tiktokFailure(text(status.fail_reason));
          default: {
            const checks = progressNumber(progress, 'checks');
            if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'TikTok did not finish processing in time', { platform: 'tiktok' });
            await save({ publishId, checks: checks + 1 });
            return { status: 'processing', checkAfterMs: processingDelay(checks) };
          }
        }
      }
    },
  };
}
