// Supported media types and sizes (platforms.md §7.2, figures unconfirmed there): image
// JPEG/PNG 5 MB, video MP4/3GPP 16 MB, audio AAC/AMR/MP3/MP4/OGG 16 MB, documents 100 MB,
// stickers WebP 500 KB. Types are read from the bytes where sniff.ts can (images, video);
// audio and documents are taken as declared.
import type { MediaType } from './message-content.ts';
import type { Failure } from './statuses.ts';

const MB = 1024 * 1024;

export const MEDIA_RULES: Record<MediaType, { mimes: string[]; maxBytes: number }> = {
  image: { mimes: ['image/jpeg', 'image/png'], maxBytes: 5 * MB },
  video: { mimes: ['video/mp4', 'video/3gpp'], maxBytes: 16 * MB },
  audio: { mimes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'], maxBytes: 16 * MB },
  document: {
    mimes: [
      'text/plain',
      'application/pdf',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    maxBytes: 100 * MB,
  },
  sticker: { mimes: ['image/webp'], maxBytes: 500 * 1024 },
};

/** The message type a MIME type can be sent as (uploads are checked against every type). */
export function kindOfMime(mime: string): MediaType | null {
  for (const [kind, rule] of Object.entries(MEDIA_RULES) as Array<[MediaType, { mimes: string[] }]>) {
    if (rule.mimes.includes(mime)) return kind;
  }
  return null;
}

/** Sniffable kinds must match their bytes; null: the bytes are fine for this message type. */
export function mediaTypeProblem(kind: MediaType, mime: string | null, size: number): Failure | null {
  const rule = MEDIA_RULES[kind];
  const sniffable = kind === 'image' || kind === 'video' || kind === 'sticker';
  if (sniffable && (!mime || !rule.mimes.includes(mime))) {
    return { code: 131053, details: `Media upload error: ${mime ?? 'unknown'} is not a supported type for ${kind} messages (${rule.mimes.join(', ')}).` };
  }
  if (size > rule.maxBytes) return { code: 131053, details: `Media upload error: ${size} bytes is over the ${rule.maxBytes} bytes allowed for ${kind}.` };
  return null;
}
