// The type of an upload, read from its first bytes with file-type (never from a name or a
// declared header). Only the types the contract lists are accepted; two near relatives are
// taken as what they are to every decoder: an animated PNG is a PNG, an Apple M4V is an MP4.

export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'video/mp4', 'video/quicktime'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** How many leading bytes detection needs (file-type's own sample size for streams). */
export const SNIFF_BYTES = 4100;

export const EXTENSIONS: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};

const ALIASES: Record<string, MediaType> = { 'image/apng': 'image/png', 'video/x-m4v': 'video/mp4' };

export const isMediaType = (value: string): value is MediaType => (MEDIA_TYPES as readonly string[]).includes(value);

export type Detection = { ok: true; type: MediaType } | { ok: false; found: string | null };

/** The type of a file from its head (its first SNIFF_BYTES bytes, or all of it when shorter). */
export async function detectMediaType(head: Uint8Array): Promise<Detection> {
  // Loaded on first use: file-type is large, and most processes never see an upload.
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head);
  if (!found) return { ok: false, found: null };
  const mime = ALIASES[found.mime] ?? found.mime;
  return isMediaType(mime) ? { ok: true, type: mime } : { ok: false, found: found.mime };
}
