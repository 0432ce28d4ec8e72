// The account's token goes only to Meta's media host: a media URL that the Cloud API's answer
// names elsewhere (another host, plain http, not a URL) is refused before any request, and a
// real lookaside URL is rewritten onto the platform API base like every platform call.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';
import { createPlatformHttp } from '../src/platforms/http.ts';
import { PlatformError } from '../src/platforms/errors.ts';
import type { PlatformContext } from '../src/platforms/context.ts';
import { memoryCounters } from '../src/platforms/counters.ts';
import { downloadMedia } from '../src/platforms/whatsapp/media.ts';

const credentials = { platformUserId: '300000000000001', accessToken: 'EAAsecret', refreshToken: null, expiresAt: null, scopes: [], metadata: {} };

function contextOn(base: string | null): PlatformContext {
  return {
    http: createPlatformHttp({ base, userAgent: 'test' }),
    apps: {},
    graphVersion: 'v24.0',
    metaWebhookVerifyToken: '',
    sandbox: false,
    counters: memoryCounters(),
  };
}

describe('WhatsApp media download URL', () => {
  test('a URL off Meta media host is refused without a request', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.headers.host ?? ''}${req.url ?? ''} ${req.headers.authorization ?? ''}`);
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end('bytes');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}/stand-in`;
    try {
      for (const url of ['https://evil.example/a.jpg', 'http://lookaside.fbsbx.com/a.jpg', `http://127.0.0.1:${address.port}/elsewhere`, 'not a url', 'https://fbsbx.com.evil.example/a']) {
        await assert.rejects(downloadMedia(contextOn(base), credentials, url), (error: unknown) => error instanceof PlatformError && error.kind === 'permanent', url);
      }
      assert.deepEqual(seen, []);
      // Meta's host, rewritten onto the base; a URL the stand-in gave on its own base, as it is.
      const real = await downloadMedia(contextOn(base), credentials, 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1');
      assert.equal(Buffer.from(await new Response(real.body).arrayBuffer()).toString(), 'bytes');
      const own = await downloadMedia(contextOn(base), credentials, `${base}/lookaside.fbsbx.com/x?mid=2`);
      await own.body.cancel();
      assert.deepEqual(seen, [`127.0.0.1:${address.port}/stand-in/lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1 Bearer EAAsecret`, `127.0.0.1:${address.port}/stand-in/lookaside.fbsbx.com/x?mid=2 Bearer EAAsecret`]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
