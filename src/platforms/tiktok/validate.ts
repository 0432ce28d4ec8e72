// tiktok's platformSpecificData (contract table "tiktok"; platforms.md §5.2–5.4): the format
// rules of src/platforms/tiktok/options.ts, its live-only rules when the post goes live, and the
// rules between keys. The contract leaves the names of the music and disclosure keys open:
// autoAddMusic and isAigc are accepted, with videoCoverTimestampMs, photoCoverIndex and a photo
// `title` (docs/adr/0021-tiktok.md).
import {
  TIKTOK_PHOTO_DESCRIPTION_MAX,
  TIKTOK_PHOTO_ONLY,
  TIKTOK_VIDEO_CAPTION_MAX,
  TIKTOK_VIDEO_ONLY,
  TiktokData,
  tiktokLiveProblem,
  type TiktokOptions,
} from './options.ts';
import { compact, Fields, length, looksLikeVideo, type TargetInput, type Validated } from '../validate-fields.ts';

export function validateTiktok(input: TargetInput): Validated<TiktokOptions> {
  const f = new Fields(input, TiktokData);
  const privacyLevel = f.oneOf('privacyLevel');
  const urls = f.mediaUrls();
  const mediaType = f.oneOf('mediaType') ?? (urls.length > 1 || (urls.length === 1 && f.has('mediaUrls') && !looksLikeVideo(urls[0] ?? '')) ? 'image' : 'video');
  const photo = mediaType === 'image';
  if (!photo && urls.length > 1) f.fail('mediaUrls', 'a video post takes one URL; photo posts (mediaType image) take up to 35');
  // Every flag is checked, including those the other kind of post skips below.
  const disableComment = f.boolean('disableComment');
  const disableDuet = f.boolean('disableDuet');
  const disableStitch = f.boolean('disableStitch');
  const brandContent = f.boolean('brandContent');
  const brandOrganic = f.boolean('brandOrganic');
  const autoAddMusic = f.boolean('autoAddMusic');
  const isAigc = f.boolean('isAigc');
  if (brandContent === true && privacyLevel === 'SELF_ONLY') f.fail('brandContent', 'paid partnerships cannot be posted with privacyLevel SELF_ONLY');
  const mediaUrls = urls.length ? urls : undefined;
  if (photo) {
    const title = f.string('title');
    const photoCoverIndex = f.integer('photoCoverIndex', Math.max(0, urls.length - 1));
    if (length(input.content) > TIKTOK_PHOTO_DESCRIPTION_MAX) f.failTarget('content', `a tiktok photo description has at most ${TIKTOK_PHOTO_DESCRIPTION_MAX} characters`);
    for (const key of TIKTOK_VIDEO_ONLY) f.skip(key, 'does not apply to photo posts; skipped');
    if (input.live) f.failLive(tiktokLiveProblem(privacyLevel, photo, urls));
    const options: TiktokOptions = compact({ disableComment, brandContent, brandOrganic, autoAddMusic, title, photoCoverIndex, privacyLevel, mediaType: 'image' as const, mediaUrls });
    return { options, warnings: f.warnings };
  }
  const videoCoverTimestampMs = f.integer('videoCoverTimestampMs');
  if (length(input.content) > TIKTOK_VIDEO_CAPTION_MAX) f.failTarget('content', `a tiktok video caption has at most ${TIKTOK_VIDEO_CAPTION_MAX} characters`);
  for (const key of TIKTOK_PHOTO_ONLY) f.skip(key, 'applies to photo posts only; skipped (the content is the video caption)');
  if (input.live) f.failLive(tiktokLiveProblem(privacyLevel, photo, urls));
  const options: TiktokOptions = compact({ disableComment, disableDuet, disableStitch, brandContent, brandOrganic, isAigc, videoCoverTimestampMs, privacyLevel, mediaType: 'video' as const, mediaUrls });
  return { options, warnings: f.warnings };
}
