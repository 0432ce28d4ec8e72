// bluesky's pure pieces (no server): the length rules in graphemes and UTF-8 bytes, facets at byte
// offsets (links without trailing punctuation, handles, tags; none inside a link), TIDs that sort
// with time, and the downscale that brings an image under 1,000,000 bytes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { facetCandidates, graphemes, textProblem } from '../src/platforms/bluesky/text.ts';
import { tid, tids } from '../src/platforms/bluesky/tid.ts';
import { prepareImage } from '../src/platforms/bluesky/images.ts';
import { xrpc } from '../src/platforms/bluesky/xrpc.ts';
import { pdsOf } from '../src/platforms/bluesky/identity.ts';
import type { PlatformHttp, PlatformRequest } from '../src/platforms/http.ts';
import { ConfigError, parseConfig } from '../src/config.ts';

const at = (text: string, part: string) => {
  const i = text.indexOf(part);
  const start = Buffer.byteLength(text.slice(0, i));
  return { byteStart: start, byteEnd: start + Buffer.byteLength(part) };
};

describe('bluesky text', () => {
  test('lengths: graphemes, then bytes', () => {
    assert.equal(graphemes('👩‍👩‍👧‍👦é'), 2);
    assert.equal(textProblem('a'.repeat(300)), null);
    assert.equal(textProblem('a'.repeat(301)), '301 graphemes, Bluesky allows 300');
    assert.equal(textProblem('👩‍👩‍👧‍👦'.repeat(121)), '3025 UTF-8 bytes, Bluesky allows 3000');
  });

  test('facets at byte offsets; trailing punctuation is not part of a link or tag', () => {
    const text = 'Ünïcödé 🥖 see https://a.example/x_(y), ask @Baker.bsky.social. #Brot! (https://b.example) #1 https://c.example/@d#e';
    const found = facetCandidates(text);
    assert.deepEqual(found, [
      { kind: 'link', uri: 'https://a.example/x_(y)', ...at(text, 'https://a.example/x_(y)') },
      { kind: 'mention', handle: 'baker.bsky.social', ...at(text, '@Baker.bsky.social') },
      { kind: 'tag', tag: 'Brot', ...at(text, '#Brot') },
      { kind: 'link', uri: 'https://b.example', ...at(text, 'https://b.example') },
      { kind: 'link', uri: 'https://c.example/@d#e', ...at(text, 'https://c.example/@d#e') },
    ]);
  });

  test('TIDs: 13 characters of base32-sortable, increasing with time', () => {
    assert.equal(tid(0, 0), '2222222222222');
    const keys = tids(Date.parse('2026-05-01T10:00:00Z'), 3);
    assert.ok(keys.every((k) => /^[234567abcdefghij][234567a-z]{12}$/.test(k)));
    assert.deepEqual([...keys].sort(), keys);
    assert.ok(tid(Date.parse('2030-01-01T00:00:00Z') * 1000) > (keys[2] ?? ''));
  });

  test('BLUESKY_ENTRYWAY: an http(s) URL kept as its origin; anything else stops the start naming the variable', () => {
    const entryway = (value?: string) => (parseConfig(value === undefined ? {} : { BLUESKY_ENTRYWAY: value }).platforms.settings.bluesky as { entryway: string }).entryway;
    assert.equal(entryway(), 'https://bsky.social');
    assert.equal(entryway('https://pds.example.com/xrpc/'), 'https://pds.example.com');
    for (const bad of ['ftp://pds.example.com', 'pds.example.com']) {
      assert.throws(() => entryway(bad), (error: unknown) => error instanceof ConfigError && error.message === `BLUESKY_ENTRYWAY must be an http(s) URL (got "${bad}")`);
    }
  });

  test('TIDs asked for in the same millisecond never repeat (a burst of due posts of one account)', () => {
    const ms = Date.now();
    const keys = Array.from({ length: 500 }, () => tids(ms, 2)).flat();
    assert.equal(new Set(keys).size, keys.length);
    assert.deepEqual([...keys].sort(), keys, 'and they keep increasing');
  });

  test('an image over 1,000,000 bytes is downscaled to at most 2000 px as JPEG; a small one is kept as it is', async () => {
    const large = await sharp({ create: { width: 2600, height: 3400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).png().toBuffer();
    const prepared = await prepareImage(large);
    assert.ok(prepared && prepared.bytes.length <= 1_000_000);
    assert.deepEqual([prepared.mimeType, prepared.width, prepared.height], ['image/jpeg', 1529, 2000]);
    const small = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const kept = await prepareImage(small);
    assert.deepEqual([kept?.bytes, kept?.mimeType, kept?.width, kept?.height], [small, null, 30, 20]);
  });

  test('hosts an account’s DID document named (its PDS, a did:web host) are called as user-chosen; the entryway, plc.directory and the video service are not', async () => {
    const sent: PlatformRequest[] = [];
    const http: PlatformHttp = {
      base: null,
      browserUrl: (url) => url,
      send: (_platform, request) => {
        sent.push(request);
        const body = request.url.endsWith('did.json') || request.url.startsWith('https://plc.directory/') ? { service: [{ id: '#atproto_pds', serviceEndpoint: 'https://pds.example.org' }] } : {};
        return Promise.resolve({ status: 200, headers: new Headers(), body });
      },
    };
    const api = xrpc(http, ['https://entry.example.net']);
    await api.call('https://entry.example.net', 'com.atproto.identity.resolveHandle', {});
    await api.call('https://video.bsky.app', 'app.bsky.video.getJobStatus', {});
    await api.call('https://pds.example.org', 'com.atproto.server.getSession', {});
    assert.equal(await pdsOf(api, 'did:plc:abcdefghijklmnopqrstuvwx'), 'https://pds.example.org');
    assert.equal(await pdsOf(api, 'did:web:alice.example.com'), 'https://pds.example.org');
    assert.deepEqual(sent.map((r) => [r.url, r.userChosenHost ?? false]), [
      ['https://entry.example.net/xrpc/com.atproto.identity.resolveHandle', false],
      ['https://video.bsky.app/xrpc/app.bsky.video.getJobStatus', false],
      ['https://pds.example.org/xrpc/com.atproto.server.getSession', true],
      ['https://plc.directory/did:plc:abcdefghijklmnopqrstuvwx', false],
      ['https://alice.example.com/.well-known/did.json', true],
    ]);
  });
});
