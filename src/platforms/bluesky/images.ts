// Images for Bluesky (bluesky.md §4): a blob of at most 1,000,000 bytes, with its aspect ratio.
// A larger file is downscaled to at most 2000 px on its longer side and re-encoded as JPEG at a
// falling quality, then at smaller sizes, until it fits; one that never fits is the caller's 400.
// EXIF orientation is applied first, so the stored pixels and the aspect ratio agree.
import sharp from 'sharp';

export const BLOB_IMAGE_MAX_BYTES = 1_000_000;
const STEPS: ReadonlyArray<readonly [side: number, quality: number]> = [
  [2000, 85],
  [2000, 75],
  [2000, 65],
  [1600, 70],
  [1280, 70],
  [1000, 65],
];

export interface PreparedImage {
  bytes: Buffer;
  /** Null: the bytes are kept as they came, with the type the caller read from them. */
  mimeType: string | null;
  width: number | null;
  height: number | null;
}

/** The image as Bluesky takes it, or null when even the smallest step is over the limit (or the bytes are not an image sharp reads). */
export async function prepareImage(bytes: Buffer): Promise<PreparedImage | null> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    return bytes.length <= BLOB_IMAGE_MAX_BYTES ? { bytes, mimeType: null, width: null, height: null } : null;
  }
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? null;
  const height = (turned ? meta.width : meta.height) ?? null;
  if (bytes.length <= BLOB_IMAGE_MAX_BYTES) return { bytes, mimeType: null, width, height };
  for (const [side, quality] of STEPS) {
    const { data, info } = await sharp(bytes)
      .rotate()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    if (data.length <= BLOB_IMAGE_MAX_BYTES) return { bytes: data, mimeType: 'image/jpeg', width: info.width, height: info.height };
  }
  return null;
}
