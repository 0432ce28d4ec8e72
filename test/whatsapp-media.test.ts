// WhatsApp media over HTTP against the in-process sandbox, on both stores: upload from a URL
// (fetched under the SSRF guard) and from our media, streamed as multipart to the number's media
// edge (the request the sandbox received), the info, download=1 with exactly the bytes
// uploaded, delete; bad input 400 naming the field, the platform's refusal of a type, the error
// table, another organization's account or media (404) and a non-WhatsApp account (400).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { png } from './fixtures/media.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addRedditAccount, api, callsSince, codeOf, connectNumber, control, firstPhone, mark, startWhatsAppApp, type WhatsAppApp } from './whatsapp-support.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A JPEG of 3 MB: more than one chunk on every hop. */
const bigJpeg = Buffer.concat([samples.jpeg, Buffer.alloc(3 * 1024 * 1024, 7)]);

for (const dialect of DIALECTS) {
  describe(`whatsapp media [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: WhatsAppApp;
    let files: FileServer;
    let key: string;
    let org: string;
    let otherKey: string;
    let accountId: string;
    let path: string;

    before(async () => {
      t = await startWhatsAppApp(dialect);
      files = await fileServer({
        '/photo.jpg': { body: bigJpeg, type: 'image/jpeg' },
        '/page.html': { body: samples.html, type: 'text/html' },
        '/untyped': { body: samples.jpeg, type: '' },
      });
      ({ key, organizationId: org } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
      accountId = await connectNumber(t, key);
      path = `/whatsapp/accounts/${accountId}/media`;
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    /** Our media, uploaded through POST /media. */
    const ourMedia = async (bytes: Buffer, name: string, k = key): Promise<string> => {
      const data = new FormData();
      data.append('file', new Blob([bytes]), name);
      const res = await t.request('/api/v1/media', { key: k, method: 'POST', body: data });
      const text = await res.text();
      assert.equal(res.status, 201, text);
      return (JSON.parse(text) as { media: { id: string } }).media.id;
    };
    const download = (id: string, k = key) => t.request(`/api/v1${path}/${id}?download=1`, { key: k });

    test('upload from a URL: 201 with the WhatsApp media id; info; download=1 gives exactly the bytes; delete', async () => {
      const seq = mark(t);
      const res = await api(t, key, 'POST', path, { url: `${files.url}/photo.jpg` });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const id = res.body.whatsappMediaId as string;
      assert.match(id, /^\d+$/);
      const calls = callsSince(t, seq);
      assert.deepEqual(calls.map((c) => [c.method, c.path]), [['POST', `/v24.0/${firstPhone(t).id}/media`]]);
      assert.match(calls[0]?.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
      const stored = t.sandbox.whatsapp.media.get(id);
      assert.equal(stored?.phoneNumberId, firstPhone(t).id);
      assert.equal(stored?.mimeType, 'image/jpeg');
      assert.equal(stored?.filename, 'photo.jpg');
      assert.ok(stored?.bytes.equals(bigJpeg), 'the sandbox holds exactly the bytes of the URL');

      const info = await api(t, key, 'GET', `${path}/${id}`);
      assert.equal(info.status, 200, JSON.stringify(info.body));
      assert.deepEqual(info.body.media, { whatsappMediaId: id, mimeType: 'image/jpeg', sha256: sha256(bigJpeg), fileSize: bigJpeg.length });

      const before = mark(t);
      const bytes = await download(id);
      assert.equal(bytes.status, 200);
      assert.equal(bytes.headers.get('content-type'), 'image/jpeg');
      assert.equal(bytes.headers.get('content-length'), String(bigJpeg.length));
      assert.equal(bytes.headers.get('content-disposition'), 'attachment');
      assert.equal(bytes.headers.get('x-content-type-options'), 'nosniff');
      assert.ok(Buffer.from(await bytes.arrayBuffer()).equals(bigJpeg), 'the download is exactly the bytes uploaded');
      // The media node for its URL, then the URL on Meta's media host with the token.
      const hops = callsSince(t, before);
      assert.deepEqual(hops.map((c) => [c.method, c.host]), [['GET', 'graph.facebook.com'], ['GET', 'lookaside.fbsbx.com']]);
      assert.match(hops[1]?.headers.authorization ?? '', /^Bearer \*\*\*/);

      const removed = await api(t, key, 'DELETE', `${path}/${id}`);
      assert.deepEqual([removed.status, removed.body], [200, { ok: true }]);
      assert.equal(t.sandbox.whatsapp.media.get(id)?.deleted, true);
      assert.deepEqual(codeOf(await api(t, key, 'GET', `${path}/${id}`)), [404, null]);
      assert.equal((await download(id)).status, 404);
      assert.deepEqual(codeOf(await api(t, key, 'DELETE', `${path}/${id}`)), [404, null]);
    });

    test('upload from our media: its stored bytes streamed up, downloaded back the same', async () => {
      const logo = png();
      const mediaId = await ourMedia(logo, 'logo.png');
      const res = await api(t, key, 'POST', path, { mediaId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const id = res.body.whatsappMediaId as string;
      const stored = t.sandbox.whatsapp.media.get(id);
      assert.equal(stored?.mimeType, 'image/png');
      assert.ok(stored?.bytes.equals(logo));
      const bytes = await download(id);
      assert.equal(bytes.headers.get('content-type'), 'image/png');
      assert.ok(Buffer.from(await bytes.arrayBuffer()).equals(logo));
    });

    test('bad input is a 400 naming the field; a URL is fetched under the guard; nothing reaches WhatsApp', async () => {
      const seq = mark(t);
      const cases: Array<[unknown, RegExp]> = [
        [{}, /^mediaId: required \(or url\)/],
        [{ mediaId: 'med_x', url: `${files.url}/photo.jpg` }, /^url: give mediaId or url, not both/],
        [{ url: 'ftp://example.com/a.jpg' }, /^url: refused: only http and https/],
        [{ url: `http://user:secret@127.0.0.1:1/a.jpg` }, /^url: refused: URLs with credentials/],
        [{ url: `${files.url}/missing.jpg` }, /^url: fetch failed: the server answered HTTP 404/],
        [{ url: `${files.url}/untyped` }, /^url: the server gave no Content-Type/],
        [{ url: 42 }, /^url:/],
      ];
      for (const [input, message] of cases) {
        const res = await api(t, key, 'POST', path, input);
        assert.equal(res.status, 400, JSON.stringify(input));
        assert.match(res.body.error?.message ?? '', message);
      }
      assert.deepEqual(codeOf(await api(t, key, 'GET', `${path}/abc`)), [404, null]);
      assert.deepEqual(codeOf(await api(t, key, 'DELETE', `${path}/me`)), [404, null]);
      assert.match((await api(t, key, 'DELETE', `${path}/me?x=1`)).body.error?.message ?? '', /^query\.x: unknown parameter$/);
      assert.match((await api(t, key, 'GET', `${path}/123?download=yes`)).body.error?.message ?? '', /^query\.download/);
      assert.equal(callsSince(t, seq).length, 0);
    });

    test("WhatsApp's refusal of a type is 400 invalid_request with its details; our unknown or foreign media is 404", async () => {
      const html = await api(t, key, 'POST', path, { url: `${files.url}/page.html` });
      assert.deepEqual(codeOf(html), [400, 'invalid_request']);
      assert.match(html.body.error?.message ?? '', /text\/html/);
      const gif = await api(t, key, 'POST', path, { mediaId: await ourMedia(samples.gif, 'a.gif') });
      assert.deepEqual(codeOf(gif), [400, 'invalid_request']);
      const seq = mark(t);
      assert.deepEqual(codeOf(await api(t, key, 'POST', path, { mediaId: 'med_unknown' })), [404, null]);
      const theirs = await ourMedia(samples.jpeg, 'theirs.jpg', otherKey);
      assert.deepEqual(codeOf(await api(t, key, 'POST', path, { mediaId: theirs })), [404, null]);
      assert.deepEqual(codeOf(await api(t, key, 'GET', `${path}/4999999999999999`)), [404, null]);
      assert.deepEqual(codeOf(await api(t, key, 'DELETE', `${path}/4999999999999999`)), [404, null]);
      assert.equal(callsSince(t, seq).filter((c) => c.path.endsWith('/media')).length, 0);
    });

    test('the error table on the media calls', async () => {
      const cases: Array<[number, number, string]> = [
        [131053, 400, 'invalid_request'],
        [130429, 429, 'rate_limited'],
        [131031, 403, 'account_restricted'],
        [131042, 403, 'account_restricted'],
        [133010, 409, 'phone_number_not_registered'],
        [10, 403, 'missing_permission'],
        [131016, 502, 'platform_error'],
      ];
      for (const [code, status, answer] of cases) {
        await control(t, 'whatsapp/faults', { code, path: '/*/media', method: 'POST' });
        const res = await api(t, key, 'POST', path, { url: `${files.url}/photo.jpg` });
        assert.deepEqual(codeOf(res), [status, answer], `code ${code}`);
      }
    });

    test("another organization's account is 404, a reddit account 400 not_supported, neither calls the platform", async () => {
      const reddit = await addRedditAccount(t, org);
      const seq = mark(t);
      const fetched = files.hits.get('/photo.jpg');
      const calls: Array<[string, string, unknown]> = [
        ['POST', '/media', { url: `${files.url}/photo.jpg` }],
        ['GET', '/media/4000000000000001', undefined],
        ['GET', '/media/4000000000000001?download=1', undefined],
        ['DELETE', '/media/4000000000000001', undefined],
      ];
      for (const [method, suffix, input] of calls) {
        assert.deepEqual(codeOf(await api(t, otherKey, method, `/whatsapp/accounts/${accountId}${suffix}`, input)), [404, null], `${method} ${suffix}`);
        assert.deepEqual(codeOf(await api(t, key, method, `/whatsapp/accounts/${reddit}${suffix}`, input)), [400, 'not_supported'], `${method} ${suffix}`);
      }
      assert.equal(callsSince(t, seq).length, 0);
      // The URL is not fetched either.
      assert.equal(files.hits.get('/photo.jpg'), fetched);
    });
  });
}
