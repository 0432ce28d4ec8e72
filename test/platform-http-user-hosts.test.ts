// A platform call to a host the platform's user chose (a Bluesky PDS or did:web host, read from a
// DID document anyone can publish) goes out only to public https addresses on the real network:
// an IP literal or a name resolving to a loopback or private address is refused before anything
// is sent, and the platform's own hosts are unaffected. With ALLOW_PRIVATE_URLS (development) or a
// platform API base (the sandbox, a stand-in chosen by the operator) the guard stays out of the way.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { PlatformError } from '../src/platforms/errors.ts';
import { createPlatformHttp } from '../src/platforms/http.ts';

describe('platform calls to user-chosen hosts', () => {
  let server: Server;
  let port: number;
  let hits = 0;

  before(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refusal = (pattern: RegExp) => (error: unknown) => error instanceof PlatformError && error.kind === 'invalid' && pattern.test(error.message);

  test('an IP literal, a name of a loopback address and plain http are refused before a byte is sent', async () => {
    const http = createPlatformHttp({ base: null, userAgent: 'test', allowPrivate: false });
    const before = hits;
    await assert.rejects(http.send('bluesky', { url: `https://127.0.0.1:${port}/xrpc/com.atproto.server.getSession`, userChosenHost: true }), refusal(/not an address the service calls: .*loopback/));
    await assert.rejects(http.send('bluesky', { url: `https://localhost:${port}/.well-known/did.json`, userChosenHost: true }), refusal(/not an address the service calls: localhost resolves to/));
    await assert.rejects(http.send('bluesky', { url: `http://pds.example.com/xrpc/x`, userChosenHost: true }), refusal(/https/));
    await assert.rejects(http.send('bluesky', { url: `https://[::1]:${port}/`, userChosenHost: true }), refusal(/not an address the service calls/));
    assert.equal(hits, before, 'nothing reached the server');
  });

  test("the platform's own hosts are not guarded, and a platform API base or ALLOW_PRIVATE_URLS lets a user-chosen host through", async () => {
    const open = createPlatformHttp({ base: null, userAgent: 'test', allowPrivate: false });
    assert.equal((await open.send('bluesky', { url: `http://127.0.0.1:${port}/plain` })).status, 200);
    const viaBase = createPlatformHttp({ base: `http://127.0.0.1:${port}`, userAgent: 'test', allowPrivate: false });
    assert.equal((await viaBase.send('bluesky', { url: 'https://pds.example.com/xrpc/com.atproto.server.getSession', userChosenHost: true })).status, 200);
    const allowed = createPlatformHttp({ base: null, userAgent: 'test', allowPrivate: true });
    // Allowed through the guard, the https handshake with this plain server then fails: a transient failure, not a refusal.
    await assert.rejects(allowed.send('bluesky', { url: `https://127.0.0.1:${port}/`, userChosenHost: true }), (error: unknown) => error instanceof PlatformError && error.kind === 'transient');
  });
});
