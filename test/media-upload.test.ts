// POST /media in its three ways, on both stores (local disk and an S3-compatible bucket) and
// both databases: every accepted type, type and size checks with nothing left behind, dropped
// uploads, URL fetches, listing, public URLs that serve the bytes, and tenant isolation.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { FileServer } from './harness/file-server.ts';
import { startS3, type TestS3 } from './harness/s3.ts';
import { waitFor } from './harness/wait.ts';
import { gif, largePng, png, SAMPLES } from './fixtures/media.ts';
import { newId } from '../src/lib/ids.ts';

const MiB = 1024 * 1024;
/** Over one S3 part (5 MiB), so limits and drops are tested in the middle of a multipart upload. */
const LIMIT = 8 * MiB;
const PUBLIC_BASE = 'http://media.test';

interface Media {
  id: string;
  postId: string | null;
  fileName: string;
  mimeType: string;
  size: number;
  createdAt: string;
  publicUrl: string | null;
}
interface ErrorBody {
  error: { message: string; code?: string };
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

/** A multipart body that streams `size` bytes of PNG, chunk by chunk, with no Content-Length. */
function streamingForm(size: number, boundary = 'socialapiboundary'): ReadableStream<Uint8Array> {
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
  const first = png();
  let sent = 0;
  let stage = 0;
  return new ReadableStream({
    pull(controller) {
      if (stage === 0) {
        controller.enqueue(head);
        controller.enqueue(first);
        sent = first.length;
        stage = 1;
      } else if (sent < size) {
        const chunk = Buffer.alloc(Math.min(256 * 1024, size - sent), 1);
        sent += chunk.length;
        controller.enqueue(chunk);
      } else {
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
      }
    },
  });
}

/** BODY_IDLE_TIMEOUT_MS of these suites: short, so a stalled upload is cut off quickly. */
const IDLE_MS = 500;

for (const dialect of DIALECTS) {
  for (const storage of ['local', 's3'] as const) {
    describe(`media uploads [${dialect}, ${storage}]`, { skip: skipReason(dialect) }, () => {
      let t: TestApp;
      let s3: TestS3 | null = null;
      let files: FileServer;
      let key: string;
      let organizationId: string;
      const mediaDir = () => join(t.config.dataDir, 'media');

      before(async () => {
        if (storage === 's3') s3 = await startS3();
        t = await startApp(dialect, {
          env: { PUBLIC_BASE_URL: PUBLIC_BASE, MEDIA_MAX_BYTES: String(LIMIT), ALLOW_PRIVATE_URLS: '1', BODY_IDLE_TIMEOUT_MS: String(IDLE_MS), ...(s3?.env ?? {}) },
        });
        ({ key, organizationId } = await t.tenant());
        files = await new FileServer().start();
      });
      /** Requests a test opens by hand; any still open when the suite ends are dropped before closing. */
      const clients = new Set<ClientRequest>();
      const rawPost = (headers: Record<string, string | number>): ClientRequest => {
        const req = httpRequest(`${t.url}/api/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers } });
        req.on('error', () => {});
        req.once('close', () => clients.delete(req));
        clients.add(req);
        return req;
      };
      after(async () => {
        // A request left open would keep its handler (and app.close(), which waits for it) alive.
        for (const req of clients) req.destroy();
        // Every step runs, even when one fails (or `before` stopped half-way): a server left
        // listening would keep this file's process alive.
        const failures: unknown[] = [];
        for (const close of [() => files.close(), () => t.close(), () => s3?.close()]) {
          try {
            await close();
          } catch (error) {
            failures.push(error);
          }
        }
        if (failures.length > 0) throw failures[0];
      });

      const post = (body: RequestInit['body'], headers: Record<string, string> = {}, extra: RequestInit = {}) =>
        t.request('/api/v1/media', { key, method: 'POST', body, headers, ...extra });
      const postJson = (body: unknown) => post(JSON.stringify(body), { 'content-type': 'application/json' });
      const form = (bytes: Buffer, name = 'upload.bin', fields: Record<string, string> = {}) => {
        const data = new FormData();
        for (const [field, value] of Object.entries(fields)) data.append(field, value);
        data.append('file', new Blob([bytes]), name);
        return data;
      };
      const created = async (res: Response): Promise<Media> => {
        const text = await res.text();
        assert.equal(res.status, 201, text);
        return (JSON.parse(text) as { media: Media }).media;
      };
      const failure = async (res: Response, status: number): Promise<ErrorBody['error']> => {
        const text = await res.text();
        assert.equal(res.status, status, text);
        return (JSON.parse(text) as ErrorBody).error;
      };
      /** Every stored object or file, partial ones included. */
      const stored = async (): Promise<string[]> => {
        if (s3) return [...(await s3.keys()), ...s3.openUploads().map((id) => `upload:${id}`)];
        return listFiles(mediaDir());
      };
      const rows = async () =>
        (await t.runtime.deps.store.db.selectFrom('media').select(['id', 'storage_key']).where('organization_id', '=', organizationId).execute()).length;
      /** The bytes behind a publicUrl: the bucket serves its own; local files come from this service. */
      const fetchPublic = (publicUrl: string, init: RequestInit = {}) =>
        s3 ? fetch(publicUrl, init) : fetch(`${t.url}${new URL(publicUrl).pathname}`, init);

      /**
       * Asserts that a failed upload left no object, no partial file and no row behind: waits until
       * every object is one that was there before (removal happens after the answer, or after the
       * client left). Objects of before that go away meanwhile (a partial upload an earlier, failed
       * test left in flight) do not count against this one.
       */
      const nothingLeft = async (before: { objects: string[]; rows: number }) => {
        const known = new Set(before.objects);
        const extra = async () => (await stored()).filter((name) => !known.has(name));
        await waitFor(async () => (await extra()).length === 0, 30_000, 'the partial upload to be removed').catch(async (error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : String(error)}; still there: ${(await extra()).join(', ')}`);
        });
        assert.equal(await rows(), before.rows);
      };
      const snapshot = async () => ({ objects: await stored(), rows: await rows() });

      for (const sample of SAMPLES) {
        test(`multipart ${sample.type}: 201 with the contract's fields, and the public URL serves the bytes`, async () => {
          const bytes = sample.bytes();
          const media = await created(await post(form(bytes, `holiday.${sample.ext}`)));
          assert.match(media.id, /^med_/);
          assert.equal(media.postId, null);
          assert.equal(media.fileName, `holiday.${sample.ext}`);
          assert.equal(media.mimeType, sample.type);
          assert.equal(media.size, bytes.length);
          assert.ok(Math.abs(Date.parse(media.createdAt) - Date.now()) < 60_000);
          assert.ok(media.publicUrl);
          const expectedBase = s3 ? `${s3.env.S3_PUBLIC_URL}/` : `${PUBLIC_BASE}/media-files/`;
          assert.ok(media.publicUrl.startsWith(expectedBase), media.publicUrl);
          assert.match(media.publicUrl, new RegExp(`/[A-Za-z0-9_-]{24}\\.${sample.ext}$`));
          const served = await fetchPublic(media.publicUrl);
          assert.equal(served.status, 200);
          assert.equal(served.headers.get('content-type')?.split(';')[0], sample.type);
          assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
          const got = await t.request(`/api/v1/media/${media.id}`, { key });
          assert.deepEqual(await got.json(), { media });
        });
      }

      test('base64, plain and as a data: URL, with fileName', async () => {
        const plain = await created(await postJson({ base64: gif().toString('base64'), fileName: 'dot.gif' }));
        assert.equal(plain.mimeType, 'image/gif');
        assert.equal(plain.fileName, 'dot.gif');
        assert.equal(plain.size, gif().length);
        const dataUrl = await created(await postJson({ base64: `data:image/png;base64,${png().toString('base64')}` }));
        assert.equal(dataUrl.mimeType, 'image/png');
        assert.equal(dataUrl.fileName, 'media.png');
        assert.ok(dataUrl.publicUrl);
        assert.deepEqual(Buffer.from(await (await fetchPublic(dataUrl.publicUrl)).arrayBuffer()), png());
      });

      test('url: fetched by the service (following a redirect), named after the URL', async () => {
        files.file('/pictures/sunset.png', png(), 'image/png').redirect('/short', '/pictures/sunset.png');
        const media = await created(await postJson({ url: files.url('/short') }));
        assert.equal(media.mimeType, 'image/png');
        assert.equal(media.fileName, 'sunset.png');
        assert.equal(media.size, png().length);
        const named = await created(await postJson({ url: files.url('/pictures/sunset.png'), fileName: 'mine.png', mimeType: 'image/png' }));
        assert.equal(named.fileName, 'mine.png');
      });

      test('a declared mimeType that disagrees with the bytes is 400 naming mimeType, and nothing is kept', async () => {
        const before = await snapshot();
        const first = await failure(await post(form(png(), 'x.png', { mimeType: 'image/jpeg' })), 400);
        assert.equal(first.message, 'mimeType: declared image/jpeg, but the file is image/png');
        // A mimeType field after the file is checked once the file has arrived.
        const data = new FormData();
        data.append('file', new Blob([png()]), 'x.png');
        data.append('mimeType', 'video/mp4');
        assert.equal((await failure(await post(data), 400)).message, 'mimeType: declared video/mp4, but the file is image/png');
        assert.match((await failure(await postJson({ base64: png().toString('base64'), mimeType: 'image/gif' }), 400)).message, /^mimeType: declared image\/gif/);
        files.file('/liar.gif', png(), 'image/gif');
        assert.match((await failure(await postJson({ url: files.url('/liar.gif'), mimeType: 'image/gif' }), 400)).message, /^mimeType: declared image\/gif/);
        assert.match((await failure(await postJson({ base64: png().toString('base64'), mimeType: 'image/svg+xml' }), 400)).message, /^mimeType: must be one of/);
        await nothingLeft(before);
      });

      test('a type outside the list, or an empty file, is 400 naming the field', async () => {
        const before = await snapshot();
        const text = await failure(await post(form(Buffer.from('just some words, not a picture'), 'notes.txt')), 400);
        assert.match(text.message, /^file: the type of the file is not recognised; accepted: image\/jpeg/);
        const pdf = await failure(await postJson({ base64: Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n').toString('base64') }), 400);
        assert.match(pdf.message, /^base64: application\/pdf is not an accepted type/);
        assert.equal((await failure(await post(form(Buffer.alloc(0), 'empty.png')), 400)).message, 'file: the file is empty');
        files.file('/empty', Buffer.alloc(0));
        assert.equal((await failure(await postJson({ url: files.url('/empty') }), 400)).message, 'url: the file is empty');
        assert.match((await failure(await postJson({ base64: '' }), 400)).message, /^base64: /);
        assert.equal((await failure(await postJson({ base64: 'not base64 at all!' }), 400)).message, 'base64: not valid base64');
        assert.equal((await failure(await postJson({}), 400)).message, 'body: give a multipart file, or JSON with url or base64');
        assert.equal((await failure(await postJson({ url: files.url('/empty'), base64: 'AAAA' }), 400)).message, 'body: give url or base64, not both');
        const misnamed = new FormData();
        misnamed.append('photo', new Blob([png()]), 'x.png');
        assert.equal((await failure(await post(misnamed), 400)).message, 'photo: unexpected file; send the file as the field "file"');
        const two = new FormData();
        two.append('file', new Blob([png()]), 'a.png');
        two.append('file', new Blob([gif()]), 'b.gif');
        assert.equal((await failure(await post(two), 400)).message, 'file: send one file per upload');
        const noFile = new FormData();
        noFile.append('fileName', 'x.png');
        assert.equal((await failure(await post(noFile), 400)).message, 'file: required');
        await nothingLeft(before);
      });

      test('bytes that are not the type their signature says (a GIF that turns into HTML) are 400 naming the field, and nothing is kept', async () => {
        const before = await snapshot();
        const page = Buffer.from('GIF89a<html><body><script>alert(document.cookie)</script></body></html>');
        // A real GIF with a page after it, and a PNG whose header chunk is corrupt.
        const trailing = Buffer.concat([gif(), Buffer.from('<!doctype html><script src="https://evil.example/x.js"></script>')]);
        const brokenPng = png();
        brokenPng[30] = (brokenPng[30] ?? 0) ^ 0xff; // in the header chunk's CRC
        assert.match((await failure(await post(form(page, 'cat.gif')), 400)).message, /^file: the file holds HTML or SVG markup; it is not a valid image\/gif file$/);
        assert.match((await failure(await postJson({ base64: trailing.toString('base64'), mimeType: 'image/gif' }), 400)).message, /^base64: the file holds HTML/);
        files.file('/cat.gif', page, 'image/gif');
        assert.match((await failure(await postJson({ url: files.url('/cat.gif') }), 400)).message, /^url: the file holds HTML/);
        assert.match((await failure(await post(form(brokenPng, 'x.png')), 400)).message, /^file: the PNG chunk IHDR fails its CRC; it is not a valid image\/png file$/);
        assert.match((await failure(await post(form(Buffer.from('GIF89a\x01\0\x01\0\0\0\0junk that is no GIF block', 'latin1'), 'x.gif')), 400)).message, /^file: the GIF has an unknown block/);
        await nothingLeft(before);
      });

      test('past MEDIA_MAX_BYTES a streamed upload stops with 413 payload_too_large and leaves nothing', async () => {
        const before = await snapshot();
        const seen = s3?.requests.length ?? 0;
        const res = await post(streamingForm(LIMIT + 2 * MiB), { 'content-type': 'multipart/form-data; boundary=socialapiboundary' }, { duplex: 'half' });
        const error = await failure(res, 413);
        assert.equal(error.code, 'payload_too_large');
        assert.equal(error.message, `file: larger than the upload limit of ${LIMIT} bytes`);
        await nothingLeft(before);
        if (s3) assert.ok(s3.requests.slice(seen).some((r) => r.startsWith('DELETE ') && r.includes('uploadId=')), 'the multipart upload was aborted');
      });

      test('a file exactly at the limit is accepted', async () => {
        const media = await created(await post(form(largePng(LIMIT), 'edge.png')));
        assert.equal(media.size, LIMIT);
      });

      test('413 also when the declared length, a fetched URL or a base64 body is over the limit', async () => {
        const before = await snapshot();
        assert.equal((await failure(await post(form(largePng(LIMIT + 256 * 1024), 'big.png')), 413)).code, 'payload_too_large');
        files.routes.set('/endless.png', (_request, response) => {
          response.writeHead(200, { 'content-type': 'image/png' });
          response.write(png());
          const chunk = Buffer.alloc(MiB, 1);
          let sent = 0;
          const more = () => {
            while (sent < LIMIT + 2 * MiB) {
              sent += chunk.length;
              if (!response.write(chunk)) return void response.once('drain', more);
            }
            response.end();
          };
          more();
        });
        const fetched = await failure(await postJson({ url: files.url('/endless.png') }), 413);
        assert.deepEqual(fetched, { message: `url: larger than the upload limit of ${LIMIT} bytes`, code: 'payload_too_large' });
        files.file('/declared-big.png', largePng(LIMIT + 1), 'image/png');
        assert.equal((await failure(await postJson({ url: files.url('/declared-big.png') }), 413)).code, 'payload_too_large');
        assert.equal((await failure(await postJson({ base64: largePng(LIMIT + 1).toString('base64') }), 413)).code, 'payload_too_large');
        const overBody = await failure(await postJson({ base64: largePng(LIMIT + 256 * 1024).toString('base64') }), 413);
        assert.equal(overBody.code, 'payload_too_large');
        assert.match(overBody.message, /^body: JSON uploads are limited to \d+ bytes; send larger files as multipart\/form-data$/);
        await nothingLeft(before);
      });

      test('a client that drops the connection mid-upload leaves no file and no record', async () => {
        const before = await snapshot();
        const seen = s3?.requests.length ?? 0;
        const boundary = 'dropboundary';
        const req = rawPost({ 'content-type': `multipart/form-data; boundary=${boundary}` });
        try {
          req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="drop.png"\r\nContent-Type: image/png\r\n\r\n`);
          req.write(png());
          // The store holds part of the upload once it has begun: at once on disk; in S3 only after
          // a whole part (5 MiB) has arrived, CreateMultipartUpload has answered and UploadPart has
          // started, which takes as long as the machine takes. So send a little more than one part
          // (well under the limit), then wait for the store itself, however long that is.
          const inProgress = () =>
            s3 ? s3.requests.slice(seen).some((r) => r.startsWith('PUT ') && r.includes('partNumber=')) : listFiles(join(mediaDir(), '.partial')).length > 0;
          const enough = 5 * MiB + 512 * 1024;
          let sent = 0;
          while (!inProgress() && sent < enough) {
            req.write(Buffer.alloc(256 * 1024, 1));
            sent += 256 * 1024;
            await sleep(5);
          }
          await waitFor(inProgress, 30_000, 'the upload to reach the store');
        } finally {
          // Then vanish (also when the test failed: a request left open would hold the app's close).
          req.destroy();
        }
        await nothingLeft(before);
        if (s3) await waitFor(() => s3?.requests.slice(seen).some((r) => r.startsWith('DELETE ') && r.includes('uploadId=')), 30_000, 'AbortMultipartUpload');
      });

      test('a client that stops sending mid-upload, its connection left open, is cut off and nothing is kept', async () => {
        const before = await snapshot();
        const boundary = 'stallboundary';
        const req = rawPost({ 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 4 * MiB });
        const closed = new Promise<number>((resolve) => req.once('close', () => resolve(Date.now())));
        try {
          req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stall.png"\r\nContent-Type: image/png\r\n\r\n`);
          req.write(png());
          req.write(Buffer.alloc(256 * 1024, 1));
          const stalledAt = Date.now();
          // Nothing more is sent, and the socket stays open: the server must close it.
          const closedAt = await Promise.race([closed, sleep(10 * IDLE_MS).then(() => null)]);
          assert.ok(closedAt !== null, 'the server kept the stalled upload open');
          assert.ok(closedAt - stalledAt >= IDLE_MS * 0.9, `closed after ${closedAt - stalledAt} ms, before the idle timeout`);
        } finally {
          req.destroy();
        }
        await nothingLeft(before);
      });

      test('a client that leaves during a URL upload stops the fetch, and nothing is kept', async () => {
        const before = await snapshot();
        let sent = 0;
        let remoteClosed = false;
        files.routes.set('/slow.png', (_request, response) => {
          response.writeHead(200, { 'content-type': 'image/png' });
          response.write(png());
          const timer = setInterval(() => {
            response.write(Buffer.alloc(64 * 1024, 1));
            sent += 64 * 1024;
          }, 5);
          response.once('close', () => {
            clearInterval(timer);
            remoteClosed = true;
          });
        });
        const body = JSON.stringify({ url: files.url('/slow.png') });
        const req = rawPost({ 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        try {
          req.end(body);
          await waitFor(() => sent > MiB, 30_000, 'the fetch to be under way');
        } finally {
          req.destroy();
        }
        await waitFor(() => remoteClosed, 30_000, 'the service to stop fetching');
        await nothingLeft(before);
      });

      test('url fetches that fail say why', async () => {
        files.routes.set('/gone', (_request, response) => response.writeHead(404).end());
        assert.equal((await failure(await postJson({ url: files.url('/gone') }), 400)).message, 'url: fetch failed: the server answered HTTP 404');
        assert.match((await failure(await postJson({ url: 'ftp://example.com/a.png' }), 400)).message, /^url: refused: only http and https URLs are allowed/);
        files.redirect('/to-metadata', 'http://169.254.169.254/latest/meta-data/');
        assert.equal(
          (await failure(await postJson({ url: files.url('/to-metadata') }), 400)).message,
          'url: refused: 169.254.169.254 is a cloud metadata address',
        );
        const closed = await failure(await postJson({ url: 'http://127.0.0.1:1/a.png' }), 400);
        assert.match(closed.message, /^url: fetch failed: 127\.0\.0\.1:1 refused the connection/);
      });

      test('GET /media lists the newest first; another organization sees none of it', async () => {
        const first = await created(await post(form(png(), 'one.png')));
        const second = await created(await post(form(gif(), 'two.gif')));
        const list = (await (await t.request('/api/v1/media', { key })).json()) as { media: Media[] };
        const ids = list.media.map((m) => m.id);
        assert.ok(ids.indexOf(second.id) < ids.indexOf(first.id));
        assert.deepEqual(ids, [...ids].sort().reverse());
        assert.deepEqual(list.media[0], second);

        const other = await t.tenant();
        const foreign = await t.request(`/api/v1/media/${first.id}`, { key: other.key });
        assert.equal(foreign.status, 404);
        const unknown = await t.request(`/api/v1/media/${newId('media')}`, { key: other.key });
        assert.deepEqual(await foreign.json(), await unknown.json());
        assert.deepEqual(await (await t.request('/api/v1/media', { key: other.key })).json(), { media: [] });
        assert.equal((await t.request('/api/v1/media', {})).status, 401);
        assert.equal((await t.request('/api/v1/media', { method: 'POST', body: form(png()) })).status, 401);
      });
    });
  }
}
