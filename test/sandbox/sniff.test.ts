// The media type detector: magic numbers only, never names or declared types.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sniff } from '../../src/sandbox/media/sniff.ts';
import { samples } from './helpers.ts';

const box = (type: string, brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(type), Buffer.from(brand), Buffer.alloc(8)]);

describe('sniff', () => {
  const cases: Array<[string, Buffer, string | null]> = [
    ['JPEG', samples.jpeg, 'image/jpeg'],
    ['PNG', samples.png, 'image/png'],
    ['GIF89a', samples.gif, 'image/gif'],
    ['GIF87a', Buffer.from('GIF87a......'), 'image/gif'],
    ['WebP', samples.webp, 'image/webp'],
    ['MP4 isom', samples.mp4, 'video/mp4'],
    ['MP4 mp42', box('ftyp', 'mp42'), 'video/mp4'],
    ['M4V', box('ftyp', 'M4V '), 'video/mp4'],
    ['QuickTime ftyp', samples.mov, 'video/quicktime'],
    ['QuickTime without ftyp', box('moov', 'xxxx'), 'video/quicktime'],
    ['WebM', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), 'video/webm'],
    ['HEIC is an image, not a video', box('ftyp', 'heic'), 'image/heic'],
    ['HTML', samples.html, null],
    ['empty', Buffer.alloc(0), null],
    ['truncated JPEG', Buffer.from([0xff, 0xd8]), null],
    ['RIFF that is not WebP (WAV)', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]), null],
    ['PDF', Buffer.from('%PDF-1.7\n'), null],
    ['ftyp with a binary brand', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftyp'), Buffer.from([0, 1, 2, 3])]), null],
  ];
  for (const [name, bytes, mime] of cases) {
    test(name, () => assert.equal(sniff(bytes)?.mime ?? null, mime));
  }

  test('kind follows the type', () => {
    assert.equal(sniff(samples.jpeg)?.kind, 'image');
    assert.equal(sniff(samples.mov)?.kind, 'video');
  });
});
