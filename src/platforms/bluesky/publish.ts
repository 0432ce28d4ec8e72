// bluesky publishing (DESIGN "More platforms", Publishing and exactly once; bluesky.md §4–§6): a
// target is a chain of posts — the post (or the first of threadItems), each further thread item
// replying to the one before, and the first comment replying to the first post — then its
// thread gate when replyControl limits replies. Every record's key (a TID) is chosen and saved
// with the target's progress before its createRecord, under createOnce's marker: after a crash
// or a lost answer (or a 500), getRecord on that key finds what was made (adopted when it is
// ours) or RecordNotFound, and only then is it created again, with the same key, which the
// repository would refuse to make twice. Images are fetched, downscaled when over 1,000,000
// bytes and uploaded as blobs (content-addressed: repeating is harmless); a video goes through
// the video service, its job id and then its blob kept in progress while the runner is
// answered `processing`.
import { createOnce, isWaiting } from '../create-once.ts';
import { PlatformError } from '../errors.ts';
import type { Json } from '../json.ts';
import { obj, text } from '../json.ts';
import { mediaTypeOf, type MediaBytes, type MediaFetcher } from '../media-bytes.ts';
import { postUrl } from '../post-url.ts';
import { keepLiveUnits, processingDelay, progressNumber } from '../publisher.ts';
import type { PublishOutcome, PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { sessionOf } from './connect.ts';
import { resolveHandle } from './identity.ts';
import { prepareImage } from './images.ts';
import type { BlueskyOptions } from './options.ts';
import { createRecord, getRecord, parseAtUri, POST, THREADGATE, uploadBlob, type StrongRef } from './repo.ts';
import { facetsOf } from './text.ts';
import { tids } from './tid.ts';
import { gateRecord } from './gate.ts';
import { startVideo, videoJob } from './video.ts';
import type { Xrpc } from './xrpc.ts';

/** About 20 minutes of job checks before giving up on a video's processing. */
const MAX_CHECKS = 25;

export interface BlueskyUnit {
  text: string;
  mediaUrls: string[];
  altTexts: Array<string | null>;
  /** How its media URLs are named in messages (`mediaUrls`, `threadItems[2].mediaUrls`). */
  mediaField: string;
  /** Index of the unit this one replies to; null for the first post. */
  replyTo: number | null;
  /** The first post carries the link card and the quote. */
  first: boolean;
  /** Thread posts carry the content warning; the first comment does not. */
  labelled: boolean;
}

interface UnitProgress {
  rkey: string;
  createdAt: string;
  uri?: string;
  cid?: string;
  video?: { jobId?: string; blob?: Json };
}

/** The thread gate as made: its key (the first post's) and its rules (kept for comments-settings). */
export interface GateProgress {
  rkey: string;
  createdAt: string;
  allow: Json[];
  uri?: string;
}

/** The posts a target makes, from its validated options. */
export function blueskyUnits(content: string, options: BlueskyOptions): BlueskyUnit[] {
  const unit = (body: string, urls: string[] | undefined, alts: Array<string | null> | undefined, mediaField: string, replyTo: number | null, first: boolean, labelled = true): BlueskyUnit => ({
    text: body,
    mediaUrls: urls ?? [],
    altTexts: alts ?? (urls ?? []).map(() => null),
    mediaField,
    replyTo,
    first,
    labelled,
  });
  const units = options.threadItems
    ? options.threadItems.map((item, i) => unit(item.content, item.mediaUrls, item.altTexts, `threadItems[${i}].mediaUrls`, i === 0 ? null : i - 1, i === 0))
    : [unit(content, options.mediaUrls, options.altTexts, 'mediaUrls', null, true)];
  if (options.firstComment) units.push(unit(options.firstComment, [], [], 'firstComment', 0, false, false));
  return units;
}

/** The rules a replyControl makes, or null for no gate (everyone). */
export function allowRules(control: BlueskyOptions['replyControl']): Json[] | null {
  switch (control) {
    case 'nobody':
      return [];
    case 'mentioned':
      return [{ $type: 'app.bsky.feed.threadgate#mentionRule' }];
    case 'following':
      return [{ $type: 'app.bsky.feed.threadgate#followingRule' }];
    case 'followers':
      return [{ $type: 'app.bsky.feed.threadgate#followerRule' }];
    default:
      return null;
  }
}

export function blueskyPublisher(api: Xrpc, media: MediaFetcher | undefined, entryway: string): Publisher<BlueskyOptions> {
  return {
    // A chain that failed part way keeps its records' keys and its live records: published again,
    // it goes on after them (Bluesky has no duplicate check, so sending them again would post them
    // twice), and a record whose fate is unknown is looked up under its key. A video job is
    // started again.
    keepOnRetry(progress) {
      const kept = keepLiveUnits<UnitProgress>(progress, (u) => !!u.uri, ({ rkey, createdAt, uri, cid }) => ({ rkey, createdAt, ...(uri && cid ? { uri, cid } : {}) }));
      return kept.units && progress.gate ? { ...kept, gate: progress.gate } : kept;
    },
    async publish(request: PublishRequest<BlueskyOptions>): Promise<PublishOutcome> {
      const { account, now, options } = request;
      const session = sessionOf(account);
      const progress: PublishProgress = { ...request.progress };
      const units = blueskyUnits(request.content, options);
      const store = () => request.save(progress);
      const once = { platform: 'bluesky', progress, store, now, inFlightMs: request.inFlightMs };
      const handles = new Map<string, string | null>();
      const fetched = new Map<string, Promise<MediaBytes>>();
      const didOf = async (handle: string) => {
        if (!handles.has(handle)) handles.set(handle, await resolveHandle(api, entryway, handle));
        return handles.get(handle) ?? null;
      };

      // Every record's key, chosen once and saved before any record is made.
      if (!Array.isArray(progress.units)) {
        const at = new Date(now()).toISOString();
        progress.units = tids(now(), units.length).map((rkey): UnitProgress => ({ rkey, createdAt: at }));
        await store();
      }
      const state = progress.units as UnitProgress[];

      for (const [i, unit] of units.entries()) {
        const done = state[i];
        if (!done) throw new PlatformError('permanent', 'the stored progress does not match the post (its thread changed after publishing began)', { platform: 'bluesky' });
        if (done.uri && done.cid) continue;
        const waiting = await prepareVideo(unit, done);
        if (waiting) return waiting;
        const record = await recordOf(unit, done);
        const made = await createOnce<StrongRef>(once, {
          key: `record${i}`,
          make: () => createRecord(api, session, POST, done.rkey, record, now()),
          find: async () => {
            const found = await getRecord(api, session, session.did, POST, done.rkey, now());
            if (!found) return null;
            if (text(found.value.createdAt) === done.createdAt && text(found.value.text) === unit.text) return { uri: found.uri, cid: found.cid };
            // Another post of this account holds the key (another process chose the same microsecond and clock id): ours gets a new one.
            [done.rkey = ''] = tids(now(), 1);
            await store();
            return null;
          },
        });
        if (isWaiting(made)) return made;
        Object.assign(done, made);
        delete done.video;
        await store();
      }

      const root = state[0];
      const rules = allowRules(options.replyControl);
      if (root?.uri && rules !== null && !obj(progress.gate).uri) {
        const gate: GateProgress = (progress.gate as GateProgress | undefined) ?? { rkey: root.rkey, createdAt: new Date(now()).toISOString(), allow: rules };
        progress.gate = gate;
        const postUri = root.uri;
        const made = await createOnce<StrongRef>(once, {
          key: 'gate',
          make: () => createRecord(api, session, THREADGATE, gate.rkey, gateRecord(postUri, gate.allow, gate.createdAt), now()),
          find: async () => getRecord(api, session, session.did, THREADGATE, gate.rkey, now()),
        });
        if (isWaiting(made)) return made;
        gate.uri = made.uri;
        await store();
      }
      const handle = account.username ?? (text(account.metadata.handle) || session.did);
      const url = root?.uri ? postUrl(api.http, `https://bsky.app/profile/${handle}/post/${root.rkey}`, 'https://bsky.app') : null;
      return { status: 'published', platformPostId: root?.uri ?? null, url };

      /** Uploads the unit's video and waits for its blob; a wait for the runner, or null when ready (or no video). */
      async function prepareVideo(unit: BlueskyUnit, done: UnitProgress): Promise<PublishOutcome | null> {
        const url = unit.mediaUrls[0];
        if (unit.mediaUrls.length !== 1 || !url || done.video?.blob) return null;
        if (!done.video?.jobId) {
          const file = await fetchMedia(url);
          if (!mediaTypeOf(file).startsWith('video/')) return null;
          done.video = { jobId: await startVideo(api, session, file.bytes, `${done.rkey}.mp4`, now()) };
          progress.checks = 0;
          await store();
        }
        const jobId = done.video.jobId ?? '';
        const job = await videoJob(api, jobId, now());
        if (job.kind === 'failed') {
          delete done.video;
          await store();
          throw new PlatformError('invalid', `${unit.mediaField}[0]: Bluesky could not process the video (${job.message})`, { platform: 'bluesky', code: 'video-failed' });
        }
        if (job.kind === 'processing') {
          const checks = progressNumber(progress, 'checks');
          if (checks >= MAX_CHECKS) throw new PlatformError('transient', 'Bluesky did not finish processing the video in time', { platform: 'bluesky' });
          progress.checks = checks + 1;
          await store();
          return { status: 'processing', checkAfterMs: processingDelay(checks) };
        }
        done.video = { jobId, blob: job.blob };
        await store();
        return null;
      }

      /** A media URL's bytes, fetched once per run (a single item is read to tell a video from an image, then used). */
      function fetchMedia(url: string): Promise<MediaBytes> {
        if (!media) throw new PlatformError('not_supported', 'this service cannot fetch media for bluesky uploads', { platform: 'bluesky' });
        let file = fetched.get(url);
        if (!file) fetched.set(url, (file = media.fetch(url, 'bluesky')));
        return file;
      }

      /** An image as a blob with its aspect ratio; too big even downscaled: a 400 naming the field. */
      async function imageBlob(url: string, field: string): Promise<{ blob: Json; aspectRatio: Json | null }> {
        const file = await fetchMedia(url);
        const image = await prepareImage(file.bytes);
        if (!image) throw new PlatformError('invalid', `platformSpecificData.${field}: the image stays over 1,000,000 bytes (it could not be downscaled enough, or not read as an image); Bluesky takes at most 1,000,000 bytes`, { platform: 'bluesky', code: 'image-too-large' });
        const blob = await uploadBlob(api, session, image.bytes, image.mimeType ?? mediaTypeOf(file), now());
        return { blob, aspectRatio: image.width && image.height ? { width: image.width, height: image.height } : null };
      }

      /** The media embed of a unit (images or its processed video), or null. */
      async function mediaEmbed(unit: BlueskyUnit, done: UnitProgress): Promise<Json | null> {
        if (done.video?.blob) {
          const alt = unit.altTexts[0];
          return { $type: 'app.bsky.embed.video', video: done.video.blob, ...(alt ? { alt } : {}) };
        }
        if (unit.mediaUrls.length === 0) return null;
        const images: Json[] = [];
        for (const [j, url] of unit.mediaUrls.entries()) {
          const { blob, aspectRatio } = await imageBlob(url, `${unit.mediaField}[${j}]`);
          images.push({ image: blob, alt: unit.altTexts[j] ?? '', ...(aspectRatio ? { aspectRatio } : {}) });
        }
        return { $type: 'app.bsky.embed.images', images };
      }

      async function cardEmbed(): Promise<Json | null> {
        const card = options.linkCard;
        if (!card) return null;
        const thumb = card.thumbnailUrl ? (await imageBlob(card.thumbnailUrl, 'linkCard.thumbnailUrl')).blob : null;
        return { $type: 'app.bsky.embed.external', external: { uri: card.url, title: card.title ?? '', description: card.description ?? '', ...(thumb ? { thumb } : {}) } };
      }

      /** The quoted post's strong ref (its cid read with getRecord), kept in progress once read. */
      async function quoted(): Promise<StrongRef | null> {
        if (!options.quoteUri) return null;
        const saved = obj(progress.quote);
        if (typeof saved.uri === 'string' && typeof saved.cid === 'string') return { uri: saved.uri, cid: saved.cid };
        const parts = parseAtUri(options.quoteUri);
        const repo = parts && (parts.repo.startsWith('did:') ? parts.repo : await didOf(parts.repo));
        const found = parts && repo ? await getRecord(api, session, repo, POST, parts.rkey, now()) : null;
        if (!found) throw new PlatformError('invalid', `platformSpecificData.quoteUri: Bluesky has no post ${options.quoteUri}`, { platform: 'bluesky', code: 'RecordNotFound' });
        progress.quote = { uri: found.uri, cid: found.cid };
        await store();
        return { uri: found.uri, cid: found.cid };
      }

      async function recordOf(unit: BlueskyUnit, done: UnitProgress): Promise<Json> {
        const record: Json = { $type: POST, text: unit.text, createdAt: done.createdAt };
        const facets = await facetsOf(unit.text, didOf);
        if (facets.length) record.facets = facets;
        if (options.langs?.length) record.langs = options.langs;
        if (unit.labelled && options.contentWarning) record.labels = { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: options.contentWarning }] };
        if (unit.replyTo !== null) {
          const root = state[0];
          const parent = state[unit.replyTo];
          if (!root?.uri || !root.cid || !parent?.uri || !parent.cid) throw new PlatformError('permanent', 'the post this reply belongs to has no uri; the rest of the chain was not posted', { platform: 'bluesky' });
          record.reply = { root: { uri: root.uri, cid: root.cid }, parent: { uri: parent.uri, cid: parent.cid } };
        }
        const mediaPart = (await mediaEmbed(unit, done)) ?? (unit.first ? await cardEmbed() : null);
        const quote = unit.first ? await quoted() : null;
        if (quote && mediaPart) record.embed = { $type: 'app.bsky.embed.recordWithMedia', record: { $type: 'app.bsky.embed.record', record: quote }, media: mediaPart };
        else if (quote) record.embed = { $type: 'app.bsky.embed.record', record: quote };
        else if (mediaPart) record.embed = mediaPart;
        return record;
      }
    },
  };
}
