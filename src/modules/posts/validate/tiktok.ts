// tiktok's platformSpecificData (contract table "tiktok"; platforms.md §5.2–5.4). The contract
// leaves the names of the music and disclosure keys open: autoAddMusic and isAigc are accepted,
// with videoCoverTimestampMs, photoCoverIndex and a photo `title` (docs/decisions.md).
import { Fields, length, looksLikeVideo, type TargetInput, type TargetResult } from './common.ts';

export const TIKTOK_KEYS = [
  'privacyLevel', 'mediaUrl', 'mediaUrls', 'mediaType', 'title', 'disableComment', 'disableDuet', 'disableStitch',
  'brandContent', 'brandOrganic', 'autoAddMusic', 'isAigc', 'videoCoverTimestampMs', 'photoCoverIndex',
] as const;
const PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;

export function validateTiktok(input: TargetInput): TargetResult {
  const f: Fields = new Fields(input);
  const privacy = f.oneOf('privacyLevel', PRIVACY);
  const urls = f.mediaUrls(1, 35);
  const mediaType = f.oneOf('mediaType', ['video', 'image'] as const) ?? (urls.length > 1 || (urls.length === 1 && f.has('mediaUrls') && !looksLikeVideo(urls[0] ?? '')) ? 'image' : 'video');
  const photo = mediaType === 'image';
  if (!photo && urls.length > 1) f.fail('mediaUrls', 'a video post takes one URL; photo posts (mediaType image) take up to 35');
  for (const key of ['disableComment', 'disableDuet', 'disableStitch', 'brandContent', 'brandOrganic', 'autoAddMusic', 'isAigc']) f.keep(key, f.boolean(key));
  if (f.options.brandContent === true && privacy === 'SELF_ONLY') f.fail('brandContent', 'paid partnerships cannot be posted with privacyLevel SELF_ONLY');
  if (photo) {
    f.keep('title', f.string('title', { max: 90 }));
    f.keep('photoCoverIndex', f.integer('photoCoverIndex', 0, Math.max(0, urls.length - 1)));
    if (length(input.content) > 4000) f.failTarget('content', 'a tiktok photo description has at most 4000 characters');
    for (const key of ['disableDuet', 'disableStitch', 'videoCoverTimestampMs', 'isAigc']) {
      if (f.has(key)) {
        delete f.options[key];
        f.skip(key, 'does not apply to photo posts; skipped');
      }
    }
  } else {
    f.keep('videoCoverTimestampMs', f.integer('videoCoverTimestampMs'));
    if (length(input.content) > 2200) f.failTarget('content', 'a tiktok video caption has at most 2200 characters');
    for (const key of ['title', 'photoCoverIndex', 'autoAddMusic']) {
      if (f.has(key)) {
        delete f.options[key];
        f.skip(key, 'applies to photo posts only; skipped (the content is the video caption)');
      }
    }
  }
  if (input.live) {
    if (privacy === undefined) f.fail('privacyLevel', 'required for live posts');
    if (urls.length === 0) f.fail(photo ? 'mediaUrls' : 'mediaUrl', `required for live posts (a ${photo ? 'photo' : 'video'} URL)`);
  }
  f.keep('privacyLevel', privacy);
  f.keep('mediaType', mediaType);
  if (urls.length) f.keep('mediaUrls', urls);
  return f.result();
}
