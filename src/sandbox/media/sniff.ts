// What a file is, read from its first bytes (magic numbers), never from its name or the
// Content-Type its server claims. Pure: bytes in, type out. Platforms check media the same
// way: Instagram takes JPEG only, Threads JPEG/PNG, TikTok photos JPEG/WebP (platforms.md
// §2.3, §4.4, §5.4), and videos must be MP4 or QuickTime (§2.4 code 352).
export type MediaKind = 'image' | 'video';

export interface SniffedType {
  kind: MediaKind;
  mime: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/heic' | 'video/mp4' | 'video/quicktime' | 'video/webm';
}

/** Bytes needed to recognise every type below. */
export const SNIFF_BYTES = 32;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  bytes.length >= end ? String.fromCharCode(...bytes.subarray(start, end)) : '';

// ISO base media brands that are still images (HEIF), not video.
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);
// QuickTime files without `ftyp` begin with one of these atoms.
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

export function sniff(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'image', mime: 'image/jpeg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', mime: 'image/png' };
  const gif = ascii(bytes, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return { kind: 'image', mime: 'image/gif' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { kind: 'image', mime: 'image/webp' };
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return { kind: 'video', mime: 'video/webm' };
  const box = ascii(bytes, 4, 8);
  if (box === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (HEIF_BRANDS.has(brand)) return { kind: 'image', mime: 'image/heic' };
    if (brand === 'qt  ') return { kind: 'video', mime: 'video/quicktime' };
    if (/^[\x20-\x7e]{4}$/.test(brand)) return { kind: 'video', mime: 'video/mp4' };
    return null;
  }
  if (QUICKTIME_ATOMS.has(box)) return { kind: 'video', mime: 'video/quicktime' };
  return null;
}
