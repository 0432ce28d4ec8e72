// A container that ends in ERROR carries its §2.4 subcode only inside its `status` text
// ("Error: Media upload has failed with error code 2207026", platforms.md §2.3). The subcode is
// read from that documented format and looked up here; the message shown on the target names
// what is wrong with the media.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';

const CONTAINER_ERRORS = new Map<number, { kind: PlatformErrorKind; text: string }>([
  [2207001, { kind: 'transient', text: 'Instagram had a server error' }],
  [2207003, { kind: 'transient', text: 'Instagram timed out downloading the media' }],
  [2207004, { kind: 'invalid', text: 'the image is larger than 8 MB' }],
  [2207005, { kind: 'invalid', text: 'the image format is not supported (JPEG only)' }],
  [2207009, { kind: 'invalid', text: 'the aspect ratio is outside 4:5 to 1.91:1' }],
  [2207010, { kind: 'invalid', text: 'the caption is too long (2200 characters, 30 hashtags, 20 mentions)' }],
  [2207020, { kind: 'transient', text: 'the media expired' }],
  [2207023, { kind: 'invalid', text: 'the media type is unknown' }],
  [2207026, { kind: 'invalid', text: 'the video format is not supported (MP4 or MOV)' }],
  [2207032, { kind: 'transient', text: 'Instagram could not create the media' }],
  [2207052, { kind: 'invalid', text: 'the media could not be fetched from its URL' }],
  [2207053, { kind: 'transient', text: 'the video upload failed' }],
  [2207076, { kind: 'invalid', text: 'the video does not meet the Reels format' }],
]);

/** Errors of media_publish after which the container cannot be used again (§2.4): make a new one. */
export const RENEW_CONTAINER = new Set([2207008, 2207020, 2207053]);

export function containerFailure(status: string): PlatformError {
  const subcode = Number(/\b(22\d{5})\b/.exec(status)?.[1] ?? NaN);
  const known = CONTAINER_ERRORS.get(subcode);
  const details = { platform: 'instagram', ...(Number.isFinite(subcode) ? { subcode } : {}) };
  if (!known) return new PlatformError('invalid', `Instagram could not process the media: ${status || 'ERROR'}`, details);
  return new PlatformError(known.kind, `Instagram could not process the media: ${known.text} (${subcode})`, details);
}
