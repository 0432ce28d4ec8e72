// The guarded fetch (src/lib/safe-fetch.ts) and its address policy, against real servers on
// 127.0.0.1. Names are given by an injected resolver, so "a public host", "a host that resolves
// to a private address" and DNS rebinding can be played on one machine; where a test needs a
// public host that really answers, its policy counts 127.0.0.1 as public and nothing else.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { addressRefusal } from '../src/lib/address-policy.ts';
import { assertPublicUrl, FetchFailedError, ResponseTooLargeError, safeFetch, UrlRefusedError, type SafeFetchOptions } from '../src/lib/safe-fetch.ts';
import { FileServer } from './harness/file-server.ts';

/** A resolver with a fixed table; each name may answer differently on successive lookups. */
function resolver(table: Record<string, string[]>): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    calls.push(hostname);
    const answers = table[hostname];
    const address = answers?.length ? (answers.length > 1 ? answers.shift() : answers[0]) : undefined;
    if (!address) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      return;
    }
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
  return Object.assign(lookup, { calls });
}

/** 127.0.0.1 plays the public internet; every other address gets the strict policy. */
const loopbackIsPublic = (address: string) => (address === '127.0.0.1' ? null : addressRefusal(address, false));

async function text(options: SafeFetchOptions, url: string): Promise<string> {
  const response = await safeFetch(url, options);
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('address policy', () => {
  const refused = [
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private (unique local)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'non-public (reserved)'],
    ['64:ff9b::7f00:1', 'non-public (rfc6052)'],
    ['2002:7f00:1::', 'non-public (6to4)'],
    ['::7f00:1', 'not global'],
  ] as const;
  for (const [address, kind] of refused) {
    test(`${address} is refused (${kind})`, () => {
      assert.equal(addressRefusal(address, false), kind === 'not global' ? 'not a global unicast address' : `a ${kind} address`);
    });
  }

  test('cloud metadata addresses are refused even when private addresses are allowed', () => {
    for (const address of ['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254', '::ffff:169.254.169.254']) {
      assert.equal(addressRefusal(address, true), 'a cloud metadata address');
    }
  });

  test('public unicast passes; ALLOW_PRIVATE_URLS opens loopback and private ranges only', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946']) assert.equal(addressRefusal(address, false), null);
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', 'fd00::1', '100.64.1.1']) assert.equal(addressRefusal(address, true), null);
    for (const address of ['169.254.1.1', '224.0.0.1', '0.0.0.0']) assert.notEqual(addressRefusal(address, true), null);
  });
});

describe('safeFetch', () => {
  let server: FileServer;
  before(async () => {
    server = await new FileServer().start();
    server.file('/hello.txt', Buffer.from('hello'), 'text/plain');
  });
  after(() => server.close());
  const base = () => `127.0.0.1:${server.port}`;

  test('loopback is refused when private addresses are not allowed, by literal and by name', async () => {
    await assert.rejects(safeFetch(server.url('/hello.txt'), { allowPrivate: false }), new UrlRefusedError('127.0.0.1 is a loopback address'));
    await assert.rejects(safeFetch(`http://[::1]:${server.port}/`, { allowPrivate: false }), new UrlRefusedError('::1 is a loopback address'));
    await assert.rejects(safeFetch(`http://[::ffff:127.0.0.1]:${server.port}/`, { allowPrivate: false }), UrlRefusedError);
    // WHATWG URL parsing turns the other IPv4 spellings into the dotted form first.
    await assert.rejects(safeFetch(`http://2130706433:${server.port}/`, { allowPrivate: false }), new UrlRefusedError('127.0.0.1 is a loopback address'));
    await assert.rejects(safeFetch(`http://0x7f.1:${server.port}/`, { allowPrivate: false }), new UrlRefusedError('127.0.0.1 is a loopback address'));
    const lookup = resolver({ 'files.example': ['127.0.0.1'] });
    await assert.rejects(
      safeFetch(`http://files.example:${server.port}/hello.txt`, { allowPrivate: false, lookup }),
      new UrlRefusedError('files.example resolves to 127.0.0.1, a loopback address'),
    );
  });

  test('allowPrivate lets the sandbox and tests use loopback', async () => {
    assert.equal(await text({ allowPrivate: true }, server.url('/hello.txt')), 'hello');
    const lookup = resolver({ 'files.example': ['127.0.0.1'] });
    assert.equal(await text({ allowPrivate: true, lookup }, `http://files.example:${server.port}/hello.txt`), 'hello');
  });

  test('the address checked is the address connected to: DNS rebinding finds no gap', async () => {
    // The first answer is public (what a check ahead of time would see), the next is loopback.
    const lookup = resolver({ 'rebind.example': ['93.184.216.34', '127.0.0.1'] });
    await assertPublicUrl(`http://rebind.example:${server.port}/hello.txt`, { allowPrivate: false, lookup });
    await assert.rejects(
      safeFetch(`http://rebind.example:${server.port}/hello.txt`, { allowPrivate: false, lookup }),
      new UrlRefusedError('rebind.example resolves to 127.0.0.1, a loopback address'),
    );
    assert.deepEqual(lookup.calls, ['rebind.example', 'rebind.example']);
  });

  test('a redirect from an allowed host to a private address is refused, by name and by literal', async () => {
    const lookup = resolver({ 'public.example': ['127.0.0.1'], 'intranet.example': ['10.0.0.7'] });
    const options = { allowPrivate: false, lookup, refusal: loopbackIsPublic };
    server.file('/ok', Buffer.from('fine'));
    assert.equal(await text(options, `http://public.example:${server.port}/ok`), 'fine');
    server.redirect('/to-intranet', 'http://intranet.example/admin');
    await assert.rejects(
      safeFetch(`http://public.example:${server.port}/to-intranet`, options),
      new UrlRefusedError('intranet.example resolves to 10.0.0.7, a private address'),
    );
    server.redirect('/to-metadata', 'http://169.254.169.254/latest/meta-data/iam/');
    await assert.rejects(safeFetch(`http://public.example:${server.port}/to-metadata`, options), new UrlRefusedError('169.254.169.254 is a cloud metadata address'));
    server.redirect('/to-v6-loopback', `http://[::1]:${server.port}/ok`);
    await assert.rejects(safeFetch(`http://public.example:${server.port}/to-v6-loopback`, options), new UrlRefusedError('::1 is a loopback address'));
    server.redirect('/to-file', 'file:///etc/passwd');
    await assert.rejects(safeFetch(`http://public.example:${server.port}/to-file`, options), new UrlRefusedError('only http and https URLs are allowed'));
  });

  test('at most 5 redirects are followed', async () => {
    for (let i = 0; i < 6; i++) server.redirect(`/hop${i}`, `/hop${i + 1}`);
    server.file('/hop6', Buffer.from('arrived'));
    server.redirect('/five', '/hop2');
    const response = await safeFetch(server.url('/five'), { allowPrivate: true });
    assert.equal(response.redirects, 5);
    assert.equal(response.url, server.url('/hop6'));
    response.body.destroy();
    await assert.rejects(safeFetch(server.url('/hop0'), { allowPrivate: true }), new FetchFailedError('more than 5 redirects'));
    const manual = await safeFetch(server.url('/hop0'), { allowPrivate: true, maxRedirects: 0 });
    assert.equal(manual.status, 302);
    manual.body.destroy();
  });

  test('schemes, credentials and https-only', async () => {
    for (const url of ['ftp://example.com/a', 'file:///etc/passwd', 'data:text/plain,hi', 'gopher://x/']) {
      await assert.rejects(safeFetch(url, { allowPrivate: true }), new UrlRefusedError('only http and https URLs are allowed'));
    }
    await assert.rejects(safeFetch(`http://user:secret@${base()}/`, { allowPrivate: true }), new UrlRefusedError('URLs with credentials are not allowed'));
    await assert.rejects(safeFetch(server.url('/hello.txt'), { allowPrivate: true, requireHttps: true }), new UrlRefusedError('only https URLs are allowed'));
    await assert.rejects(assertPublicUrl('not a url', { allowPrivate: true }), new UrlRefusedError('not a valid URL'));
    await assert.rejects(assertPublicUrl('https://nowhere.example/', { allowPrivate: false, lookup: resolver({}) }), new UrlRefusedError('nowhere.example cannot be resolved'));
  });

  test('the size limit holds while streaming and on a declared length', async () => {
    server.routes.set('/stream', (_request, response) => {
      response.writeHead(200);
      let sent = 0;
      const timer = setInterval(() => {
        response.write(Buffer.alloc(1000, 1));
        sent += 1000;
        if (sent >= 20_000) {
          clearInterval(timer);
          response.end();
        }
      }, 1);
    });
    const streaming = await safeFetch(server.url('/stream'), { allowPrivate: true, maxBytes: 5000 });
    await assert.rejects(async () => {
      for await (const _chunk of streaming.body) {
        // read until the limit fails the stream
      }
    }, new ResponseTooLargeError(5000));
    server.file('/declared', Buffer.alloc(6000));
    await assert.rejects(safeFetch(server.url('/declared'), { allowPrivate: true, maxBytes: 5000 }), ResponseTooLargeError);
  });

  test('timeouts: no answer, a stalled body, the whole exchange', async () => {
    server.routes.set('/silent', () => {});
    await assert.rejects(safeFetch(server.url('/silent'), { allowPrivate: true, headersTimeoutMs: 100 }), new FetchFailedError(`${base()} did not answer in time`));
    server.routes.set('/stall', (_request, response) => {
      response.writeHead(200);
      response.write('a little');
    });
    const stalled = await safeFetch(server.url('/stall'), { allowPrivate: true, idleTimeoutMs: 100 });
    await assert.rejects(async () => {
      for await (const _chunk of stalled.body) {
        // wait for the idle timeout
      }
    }, new FetchFailedError(`${base()} stopped sending`));
    await assert.rejects(safeFetch(server.url('/silent'), { allowPrivate: true, timeoutMs: 150 }), new FetchFailedError(`no complete answer from ${base()} within 150 ms`));
  });

  test('connection failures say why', async () => {
    await assert.rejects(safeFetch('http://127.0.0.1:1/', { allowPrivate: true }), new FetchFailedError('127.0.0.1:1 refused the connection'));
    await assert.rejects(safeFetch('http://nowhere.example/', { allowPrivate: true, lookup: resolver({}) }), new FetchFailedError('nowhere.example cannot be resolved'));
  });

  test('POST with a body, and credentials are not carried to another origin', async () => {
    let seen: { method?: string; body: string; authorization?: string } | null = null;
    server.routes.set('/echo', (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen = { method: request.method, body, authorization: request.headers.authorization };
        response.writeHead(204).end();
      });
    });
    const posted = await safeFetch(server.url('/echo'), { allowPrivate: true, method: 'POST', body: '{"a":1}', headers: { authorization: 'Bearer x' }, maxRedirects: 0 });
    posted.body.destroy();
    assert.deepEqual(seen, { method: 'POST', body: '{"a":1}', authorization: 'Bearer x' });
    const lookup = resolver({ 'other.example': ['127.0.0.1'] });
    server.redirect('/elsewhere', `http://other.example:${server.port}/echo`, 307);
    const redirected = await safeFetch(server.url('/elsewhere'), { allowPrivate: true, lookup, method: 'POST', body: 'b', headers: { authorization: 'Bearer x' } });
    redirected.body.destroy();
    assert.deepEqual(seen, { method: 'POST', body: 'b', authorization: undefined });
  });
});
