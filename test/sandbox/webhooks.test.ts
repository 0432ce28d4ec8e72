// Meta webhooks from the sandbox (platforms.md §8): a subscription through the Graph
// /{app-id}/subscriptions edge performs the verification handshake against a real receiver on
// 127.0.0.1; notifications arrive signed with X-Hub-Signature-256, checked here with node:crypto
// over the raw bytes.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { graphErrorOf, sandbox } from './helpers.ts';

const APP = '555000111';
const SECRET = 'webhook-app-secret';
const VERIFY = 'my-verify-token';

interface Received {
  method: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

describe('Meta webhooks', () => {
  let sb: RunningSandbox;
  let receiver: Server;
  let callback: string;
  const received: Received[] = [];
  let answerWrongChallenge = false;

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'facebook', clientId: APP, clientSecret: SECRET }] });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        received.push({ method: req.method ?? '', query: url.searchParams, headers: req.headers, raw: Buffer.concat(chunks) });
        if (req.method === 'GET') {
          const ok = url.searchParams.get('hub.mode') === 'subscribe' && url.searchParams.get('hub.verify_token') === VERIFY;
          if (!ok) return void res.writeHead(403).end();
          return void res.writeHead(200, { 'content-type': 'text/plain' }).end(answerWrongChallenge ? 'nope' : (url.searchParams.get('hub.challenge') ?? ''));
        }
        res.writeHead(200).end('EVENT_RECEIVED');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    callback = `http://127.0.0.1:${address.port}/webhooks/meta`;
  });
  after(async () => {
    await sb.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const subscribe = (params: Record<string, string>, token = `${APP}|${SECRET}`) =>
    fetch(`${sb.url}/graph.facebook.com/v24.0/${APP}/subscriptions`, { method: 'POST', body: new URLSearchParams({ access_token: token, ...params }) });

  test('subscribing performs the handshake; a wrong verify token or echo is error 2200', async () => {
    const wrongToken = await subscribe({ object: 'page', callback_url: callback, fields: 'feed', verify_token: 'wrong' });
    assert.equal((await graphErrorOf(wrongToken)).code, 2200);
    answerWrongChallenge = true;
    assert.equal((await graphErrorOf(await subscribe({ object: 'page', callback_url: callback, fields: 'feed', verify_token: VERIFY }))).code, 2200);
    answerWrongChallenge = false;

    const res = await subscribe({ object: 'page', callback_url: callback, fields: 'feed,mention', verify_token: VERIFY, include_values: 'true' });
    assert.deepEqual(await res.json(), { success: true });
    const handshake = received.filter((r) => r.method === 'GET').at(-1);
    assert.equal(handshake?.query.get('hub.mode'), 'subscribe');
    assert.equal(handshake?.query.get('hub.verify_token'), VERIFY);
    assert.match(handshake?.query.get('hub.challenge') ?? '', /^\d+$/);

    const listed = (await (await fetch(`${sb.url}/graph.facebook.com/v24.0/${APP}/subscriptions?access_token=${APP}|${SECRET}`)).json()) as {
      data: Array<{ object: string; callback_url: string; active: boolean; fields: Array<{ name: string; version: string }> }>;
    };
    assert.deepEqual(listed.data[0]?.fields.map((f) => f.name), ['feed', 'mention']);
    assert.equal(listed.data[0]?.callback_url, callback);
  });

  test('only the app token of that app may manage subscriptions', async () => {
    const error = await graphErrorOf(await subscribe({ object: 'page', callback_url: callback, verify_token: VERIFY }, `${APP}|wrong`));
    assert.equal(error.code, 190);
  });

  test('notifications are POSTed with a signature that verifies over the raw body', async () => {
    const entry = [{ id: '123', time: 1_700_000_000, changes: [{ field: 'feed', value: { item: 'comment', verb: 'add', message: 'café / ok' } }] }];
    const res = await fetch(`${sb.url}/_sandbox/webhooks/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appId: APP, object: 'page', entry }),
    });
    assert.deepEqual(await res.json(), { statuses: [200] });
    const delivery = received.filter((r) => r.method === 'POST').at(-1);
    assert.ok(delivery);
    const header = String(delivery.headers['x-hub-signature-256']);
    const expected = `sha256=${createHmac('sha256', SECRET).update(delivery.raw).digest('hex')}`;
    assert.ok(timingSafeEqual(Buffer.from(header), Buffer.from(expected)));
    assert.equal(delivery.headers['x-hub-signature'], `sha1=${createHmac('sha1', SECRET).update(delivery.raw).digest('hex')}`);
    const text = delivery.raw.toString();
    assert.match(text, /caf\\u00e9 \\\/ ok/, 'non-ASCII and / are escaped as Meta does');
    assert.deepEqual(JSON.parse(text), { object: 'page', entry });
    const resigned = createHmac('sha256', SECRET).update(JSON.stringify(JSON.parse(text))).digest('hex');
    assert.notEqual(`sha256=${resigned}`, header, 'a receiver that re-serialises would fail');
  });

  test('objects without a subscription get nothing; unsubscribing stops deliveries', async () => {
    const none = await fetch(`${sb.url}/_sandbox/webhooks/notify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appId: APP, object: 'instagram', entry: [] }) });
    assert.deepEqual(await none.json(), { statuses: [] });
    const removed = await fetch(`${sb.url}/graph.facebook.com/v24.0/${APP}/subscriptions?access_token=${APP}|${SECRET}&object=page`, { method: 'DELETE' });
    assert.deepEqual(await removed.json(), { success: true });
    const after = await fetch(`${sb.url}/_sandbox/webhooks/notify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appId: APP, object: 'page', entry: [] }) });
    assert.deepEqual(await after.json(), { statuses: [] });
  });
});
