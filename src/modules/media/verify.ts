// Whether the head of an upload is what its signature says (issue 29, point 8). file-type reads
// only the first few bytes, so `GIF89a<html><script>…` passed as a GIF, and was served from our
// own origin as one: a browser that sniffs (or a download opened as a file) would run it as a
// page. Two checks on the head (the same first SNIFF_BYTES the type was read from), both cheap
// and both about what a browser reads first:
// - its structure, as far as the head goes: the GIF's screen descriptor and blocks, the PNG's
//   chunks with their CRCs, the JPEG's marker segments up to the scan, the WebP's RIFF chunk, the
//   ISO boxes of MP4 and QuickTime; a file whose head breaks its own format is refused;
// - no markup: the head must not hold what would make a browser render HTML or SVG (a tag such
//   as <html, <script, <svg, <iframe, <body …), the way old sniffers read the first bytes of any
//   answer. Real pictures and videos hold compressed data and binary headers there; XMP metadata
//   uses its own elements (x:xmpmeta, rdf:…), none of these.
// The rest of a large file streams to the store unread, as before.
import { crc32 } from 'node:zlib';
import type { MediaType } from './detect.ts';

/** Why the head is not a file of its type, or null when it is. */
export type Verdict = string | null;

// Tags of at least three letters: in compressed data each is a chance of about 1 in 10^10 per
// byte, so a real picture is never refused for one (a one-letter tag such as <a would be).
const MARKUP = /<(?:!doctype|html|head|body|script|iframe|frame|frameset|object|embed|svg|style|link|meta|img|form|input|base|math|template)[\s/>]/i;

function gif(head: Buffer): Verdict {
  if (head.length < 13) return 'the GIF header is cut short';
  if (head.readUInt16LE(6) === 0 || head.readUInt16LE(8) === 0) return 'the GIF has no width or height';
  const packed = head[10] ?? 0;
  let at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  // A run of sub-blocks: a size byte and that many bytes, until a size of 0.
  const skipSubBlocks = (): void => {
    while (at < head.length) {
      const size = head[at] ?? 0;
      at += 1 + size;
      if (size === 0) return;
    }
  };
  while (at < head.length) {
    const introducer = head[at];
    if (introducer === 0x3b) return null;
    if (introducer === 0x21) {
      at += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      const local = head[at + 9] ?? 0;
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0);
      const minCodeSize = head[at];
      if (minCodeSize !== undefined && (minCodeSize < 1 || minCodeSize > 12)) return 'a GIF image has an invalid code size';
      at += 1;
      skipSubBlocks();
    } else {
      return `the GIF has an unknown block (byte ${at})`;
    }
  }
  return null;
}

function png(head: Buffer): Verdict {
  let at = 8;
  let first = true;
  while (at + 8 <= head.length) {
    const length = head.readUInt32BE(at);
    const type = head.subarray(at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type.toString('latin1'))) return `the PNG has a malformed chunk (byte ${at})`;
    if (first && (type.toString('latin1') !== 'IHDR' || length !== 13)) return 'the PNG does not begin with its header chunk';
    first = false;
    const end = at + 12 + length;
    if (end > head.length) return null;
    if (crc32(head.subarray(at + 4, at + 8 + length)) !== head.readUInt32BE(at + 8 + length)) return `the PNG chunk ${type.toString('latin1')} fails its CRC`;
    if (type.toString('latin1') === 'IEND') return null;
    at = end;
  }
  return null;
}

function jpeg(head: Buffer): Verdict {
  let at = 2;
  while (at < head.length) {
    if (head[at] !== 0xff) return `the JPEG has a malformed segment (byte ${at})`;
    while (head[at] === 0xff) at++;
    const marker = head[at];
    if (marker === undefined) return null;
    at++;
    if (marker === 0x00) return `the JPEG has a malformed segment (byte ${at - 1})`;
    // Markers without a length: the restart markers, start and end of image, TEM.
    if ((marker >= 0xd0 && marker <= 0xd9) || marker === 0x01) {
      if (marker === 0xd9) return null;
      continue;
    }
    if (at + 2 > head.length) return null;
    const length = head.readUInt16BE(at);
    if (length < 2) return 'a JPEG segment has an invalid length';
    // The scan's entropy-coded data follows; the head is what it claimed to be up to here.
    if (marker === 0xda) return null;
    at += length;
  }
  return null;
}

function webp(head: Buffer): Verdict {
  if (head.length < 20) return 'the WebP header is cut short';
  const chunk = head.toString('latin1', 12, 16);
  if (!['VP8 ', 'VP8L', 'VP8X'].includes(chunk)) return 'the WebP has no image chunk';
  return null;
}

function isoBoxes(head: Buffer): Verdict {
  let at = 0;
  while (at + 8 <= head.length) {
    let size = head.readUInt32BE(at);
    const type = head.toString('latin1', at + 4, at + 8);
    if (!/^[\x20-\x7e\xa9]{4}$/.test(type)) return `the video has a malformed box (byte ${at})`;
    if (size === 0) return null;
    if (size === 1) {
      if (at + 16 > head.length) return null;
      const large = head.readBigUInt64BE(at + 8);
      if (large < 16n) return 'a video box has an invalid size';
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) return null;
      size = Number(large);
    } else if (size < 8) {
      return 'a video box has an invalid size';
    }
    at += size;
  }
  return null;
}

/** Why `head` (the first bytes of a file read as `type`) is not such a file, or null. */
export function verifyHead(type: MediaType, head: Buffer): Verdict {
  if (MARKUP.test(head.toString('latin1'))) return 'the file holds HTML or SVG markup';
  switch (type) {
    case 'image/gif':
      return gif(head);
    case 'image/png':
      return png(head);
    case 'image/jpeg':
      return jpeg(head);
    case 'image/webp':
      return webp(head);
    case 'video/mp4':
    case 'video/quicktime':
      return isoBoxes(head);
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}
