// How the local store's files are served (/media-files/<key>: types, lengths, ETag, ranges,
// HEAD, caching, no key), when publicUrl is set, that the sandbox's fetcher reads what the
// service serves, and that URL uploads refuse loopback when private URLs are not allowed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../src/config.ts';
import { parseRange } from '../src/modules/media/files-route.ts';
import { fetchMedia } from '../src/sandbox/media/fetch.ts';
import { localPublicBase } from '../src/storage/index.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { FileServer } from './harness/file-server.ts';
import { largePng, png } from './fixtures/media.ts';

const SIZE = 100_000;

describe('publicUrl of the local store', () => {
  test('set when PUBLIC_BASE_URL is given, or in sandbox mode; null in live mode without it', () => {
    assert.equal(localPublicBase(parseConfig({ SANDBOX: '1' })), 'http://127.0.0.1:3000');
    assert.equal(localPublicBase(parseConfig({ SANDBOX: '1', PORT: '8080', HOST: '0.0.0.0' })), 'http://127.0.0.1:8080');
    assert.equal(localPublicBase(parseConfig({ SANDBOX: '0' })), null);
    assert.equal(localPublicBase(parseConfig({ SANDBOX: '0', PUBLIC_BASE_URL: 'https://api.example.com/' })), 'https://api.example.com');
  });
});

describe('Range headers', () => {
  test('one range is honoured; several, or malformed ones, mean the whole file', () => {
    assert.deepEqual(parseRange('bytes=0-0', 10), { start: 0, end: 0 });
    assert.deepEqual(parseRange('bytes=5-100', 10), { start: 5, end: 9 });
    assert.deepEqual(parseRange('bytes=7-', 10), { start: 7, end: 9 });
    assert.deepEqual(parseRange('bytes=-3', 10), { start: 7, end: 9 });
    assert.deepEqual(parseRange('bytes=-30', 10), { start: 0, end: 9 });
    assert.equal(parseRange('bytes=10-', 10), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 10), 'unsatisfiable');
    for (const header of [undefined, 'bytes=1-2,4-5', 'bytes=x-1', 'bytes=3-1', 'items=0-1', 'bytes=-']) assert.equal(parseRange(header, 10), null, header);
  });
});

for (const dialect of DIALECTS) {
  describe(`media files [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let key: string;
    let path: string;
    const bytes = largePng(SIZE);

    before(async () => {
      t = await startApp(dialect, { env: { PUBLIC_BASE_URL: 'https://cdn.example.com/base' } });
      ({ key } = await t.tenant());
      const data = new FormData();
      data.append('file', new Blob([bytes]), 'range.png');
      const res = await t.request('/api/v1/media', { key, method: 'POST', body: data });
      assert.equal(res.status, 201);
      const { media } = (await res.json()) as { media: { publicUrl: string } };
      assert.match(media.publicUrl, /^https:\/\/cdn\.example\.com\/base\/media-files\/[A-Za-z0-9_-]{24}\.png$/);
      path = new URL(media.publicUrl).pathname.replace(/^\/base/, '');
    });
    after(() => t.close());

    test('GET serves the file with its type, length, validators and a year of caching, without a key', async () => {
      const res = await t.request(path);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.equal(res.headers.get('content-length'), String(SIZE));
      assert.equal(res.headers.get('accept-ranges'), 'bytes');
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.ok(res.headers.get('etag'));
      assert.ok(res.headers.get('last-modified'));
      assert.equal(res.headers.get('ratelimit-limit'), null, 'not rate limited');
      // Never read as another type than the one declared (issue 29, point 8).
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
    });

    test('HEAD answers the headers only', async () => {
      const res = await t.request(path, { method: 'HEAD' });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-length'), String(SIZE));
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.equal((await res.arrayBuffer()).byteLength, 0);
    });

    test('ranges: a slice, a suffix, an open end; past the end is 416', async () => {
      const slice = await t.request(path, { headers: { range: 'bytes=100-199' } });
      assert.equal(slice.status, 206);
      assert.equal(slice.headers.get('content-range'), `bytes 100-199/${SIZE}`);
      assert.equal(slice.headers.get('content-length'), '100');
      assert.deepEqual(Buffer.from(await slice.arrayBuffer()), bytes.subarray(100, 200));
      const suffix = await t.request(path, { headers: { range: 'bytes=-10' } });
      assert.equal(suffix.status, 206);
      assert.deepEqual(Buffer.from(await suffix.arrayBuffer()), bytes.subarray(SIZE - 10));
      const open = await t.request(path, { headers: { range: `bytes=${SIZE - 5}-` } });
      assert.equal(open.status, 206);
      assert.equal(open.headers.get('content-range'), `bytes ${SIZE - 5}-${SIZE - 1}/${SIZE}`);
      await open.arrayBuffer();
      const beyond = await t.request(path, { headers: { range: `bytes=${SIZE}-` } });
      assert.equal(beyond.status, 416);
      assert.equal(beyond.headers.get('content-range'), `bytes */${SIZE}`);
      for (const answer of [slice, suffix, open, beyond]) assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      await beyond.arrayBuffer();
    });

    test('conditional requests: a matching ETag is 304; If-Range with another ETag gets the whole file', async () => {
      const head = await t.request(path, { method: 'HEAD' });
      const etag = head.headers.get('etag') ?? '';
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'a strong ETag');
      const res = await t.request(path, { headers: { 'if-none-match': etag } });
      assert.equal(res.status, 304);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      await res.arrayBuffer();
      const since = await t.request(path, { headers: { 'if-modified-since': head.headers.get('last-modified') ?? '' } });
      assert.equal(since.status, 304);
      await since.arrayBuffer();
      const same = await t.request(path, { headers: { range: 'bytes=0-9', 'if-range': etag } });
      assert.equal(same.status, 206);
      await same.arrayBuffer();
      const changed = await t.request(path, { headers: { range: 'bytes=0-9', 'if-range': '"something-else"' } });
      assert.equal(changed.status, 200);
      assert.equal((await changed.arrayBuffer()).byteLength, SIZE);
    });

    test('unknown keys and anything that is not a key are 404', async () => {
      for (const other of ['/media-files/AAAAAAAAAAAAAAAAAAAAAAAA.png', '/media-files/..%2Fsocialapi.db', '/media-files/.partial', '/media-files/x.png']) {
        const res = await t.request(other);
        assert.equal(res.status, 404, other);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        await res.arrayBuffer();
      }
    });

    test('the route is not in the API document', async () => {
      const doc = (await (await t.request('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
      assert.ok(!Object.keys(doc.paths).some((p) => p.includes('media-files')));
    });

    test("the sandbox's media fetcher reads what the service serves", async () => {
      const fetched = await fetchMedia(`${t.url}${path}`, { maxBytes: 10 * SIZE, timeoutMs: 5000 });
      assert.ok(fetched.ok);
      assert.equal(fetched.size, SIZE);
      assert.equal(fetched.type?.mime, 'image/png');
    });
  });

  describe(`media URL uploads without ALLOW_PRIVATE_URLS [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let key: string;
    let files: FileServer;
    before(async () => {
      t = await startApp(dialect, { env: { ALLOW_PRIVATE_URLS: '0' } });
      ({ key } = await t.tenant());
      files = await new FileServer().start();
      files.file('/pic.png', png(), 'image/png');
    });
    after(async () => {
      await files.close();
      await t.close();
    });
    const upload = (url: string) =>
      t.request('/api/v1/media', { key, method: 'POST', body: JSON.stringify({ url }), headers: { 'content-type': 'application/json' } });

    test('loopback, private and metadata addresses are refused with the reason, and nothing is stored', async () => {
      for (const [url, reason] of [
        [files.url('/pic.png'), '127.0.0.1 is a loopback address'],
        [`http://localhost:${files.port}/pic.png`, `localhost resolves to`],
        [`http://[::1]:${files.port}/pic.png`, '::1 is a loopback address'],
        ['http://10.0.0.1/pic.png', '10.0.0.1 is a private address'],
        ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
      ] as const) {
        const res = await upload(url);
        assert.equal(res.status, 400, url);
        const { error } = (await res.json()) as { error: { message: string } };
        assert.ok(error.message.startsWith(`url: refused: ${reason}`), error.message);
      }
      const list = (await (await t.request('/api/v1/media', { key })).json()) as { media: unknown[] };
      assert.equal(list.media.length, 0);
    });
  });
}
