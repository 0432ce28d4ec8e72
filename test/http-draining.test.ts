// A request that reaches the service while it closes (here the second request of a keep-alive
// connection, sent once closing has begun, while the first is still being answered) answers a
// 503 in the error shape, with Connection: close, instead of Fastify's own body. The first
// request is a sandbox call held back by a delay fault, so the connection stays busy.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { DRAINING_MESSAGE } from '../src/http/draining.ts';
import { parseResponses } from './harness/raw-http.ts';
import { startConnectApp } from './harness/connect.ts';

describe('closing', () => {
  test('a request arriving while the app closes answers 503 in the error shape', async () => {
    const t = await startConnectApp('sqlite', { worker: false });
    let closed: Promise<void> | null = null;
    const { hostname, port, host } = new URL(t.url);
    const socket = net.connect({ host: hostname, port: Number(port) });
    try {
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: '/me', kind: 'delay', delayMs: 800 });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`GET /sandbox/graph.facebook.com/v24.0/me HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      closed = t.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
      const responses = parseResponses(Buffer.concat(chunks));
      assert.equal(responses.length, 2, JSON.stringify(responses));
      const [, second] = responses;
      assert.equal(second?.status, 503);
      assert.equal(second?.headers.connection, 'close');
      assert.deepEqual(JSON.parse(second?.body ?? '{}'), { error: { message: DRAINING_MESSAGE } });
    } finally {
      socket.destroy();
      await (closed ?? t.close());
    }
  });
});
