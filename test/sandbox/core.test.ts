// The sandbox's own machinery: mounting under a prefix of another app, platform-shaped errors
// only, fault injection, the request journal with secrets masked, the control API, reset,
// deterministic ids, and media downloads with size and time limits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { sandboxPlugin, SandboxState, startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { fetchMedia } from '../../src/sandbox/media/fetch.ts';
import { consent, fileServer, graphErrorOf, sandbox, samples, type FileServer } from './helpers.ts';

const control = (base: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
  fetch(`${base}/_sandbox${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

async function facebookToken(base: string): Promise<string> {
  const location = await consent(`${base}/www.facebook.com/v24.0/dialog/oauth?client_id=1&redirect_uri=${encodeURIComponent('https://a.example/cb')}&scope=pages_show_list&state=s`);
  const res = await fetch(`${base}/graph.facebook.com/v24.0/oauth/access_token?client_id=1&client_secret=s&redirect_uri=${encodeURIComponent('https://a.example/cb')}&code=${location.searchParams.get('code') ?? ''}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('mounted under a prefix of another Fastify app', () => {
  let host: FastifyInstance;
  let base: string;
  let root: string;
  const state = new SandboxState({ seed: 'mounted' });

  before(async () => {
    host = Fastify();
    host.setErrorHandler((_e, _r, reply) => reply.status(500).send({ error: { message: 'service shape', code: 'service' } }));
    host.setNotFoundHandler((_r, reply) => reply.status(404).send({ error: { message: 'service 404' } }));
    host.get('/api/v1/ping', () => ({ pong: true }));
    await host.register(sandboxPlugin, { prefix: '/sandbox', state });
    await host.listen({ port: 0, host: '127.0.0.1' });
    const address = host.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    root = `http://127.0.0.1:${address.port}`;
    base = `${root}/sandbox`;
  });
  after(() => host.close());

  test('the service keeps its routes and error shapes; the sandbox answers platform shapes', async () => {
    assert.deepEqual(await (await fetch(`${root}/api/v1/ping`)).json(), { pong: true });
    assert.deepEqual(await (await fetch(`${root}/nothing`)).json(), { error: { message: 'service 404' } });
    const graph = await graphErrorOf(await fetch(`${base}/graph.facebook.com/v24.0/me`));
    assert.equal(graph.code, 2500);
    const badJson = await fetch(`${base}/open.tiktokapis.com/v2/post/publish/video/init/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    assert.equal(badJson.status, 400);
    assert.equal(((await badJson.json()) as { error: { code: string } }).error.code, 'invalid_params');
    const redditMissing = await fetch(`${base}/oauth.reddit.com/api/nothing`);
    assert.deepEqual(await redditMissing.json(), { message: 'Not Found', error: 404 });
  });

  test('the OAuth round trip works under the prefix (the form posts back under it)', async () => {
    const token = await facebookToken(base);
    const me = (await (await fetch(`${base}/graph.facebook.com/v24.0/me?access_token=${token}`)).json()) as { name: string };
    assert.equal(me.name, 'Sandbox User');
    assert.ok(state.journal.list({ host: 'graph.facebook.com' }).length >= 2, 'the caller-held state sees the requests');
  });
});

describe('standalone: faults, journal, control API', () => {
  let sb: RunningSandbox;
  let token: string;
  before(async () => {
    sb = await sandbox();
    token = await facebookToken(sb.url);
  });
  after(() => sb.close());
  const me = () => fetch(`${sb.url}/graph.facebook.com/v24.0/me?access_token=${token}`);

  test('a Graph error fault answers the next N matching requests, then stops', async () => {
    const fault = await control(sb.url, '/faults', { host: 'graph.facebook.com', path: '/me', kind: 'error', code: 190, subcode: 463, times: 2 });
    assert.equal(fault.status, 200);
    for (let i = 0; i < 2; i++) {
      const error = await graphErrorOf(await me());
      assert.deepEqual([error.code, error.error_subcode], [190, 463]);
    }
    assert.equal((await me()).status, 200);
  });

  test('rate-limit and 5xx faults use each platform own shape', async () => {
    await control(sb.url, '/faults', { host: 'graph.facebook.com', path: '/**', kind: 'rate_limit' });
    const graph = await graphErrorOf(await me());
    assert.equal(graph.code, 4);
    await control(sb.url, '/faults', { host: 'open.tiktokapis.com', kind: 'rate_limit' });
    const tiktok = await fetch(`${sb.url}/open.tiktokapis.com/v2/user/info/?fields=open_id`);
    assert.equal(tiktok.status, 429);
    assert.equal(((await tiktok.json()) as { error: { code: string } }).error.code, 'rate_limit_exceeded');
    await control(sb.url, '/faults', { host: 'oauth.reddit.com', kind: 'server_error', status: 503 });
    const reddit = await fetch(`${sb.url}/oauth.reddit.com/api/v1/me`);
    assert.deepEqual([reddit.status, await reddit.json()], [503, { message: 'Service Unavailable', error: 503 }]);
    await control(sb.url, '/faults', { host: 'oauth.reddit.com', path: '/api/submit', kind: 'error', code: 'RATELIMIT', message: 'you are doing that too much. try again in 9 minutes.' });
    const envelope = await fetch(`${sb.url}/oauth.reddit.com/api/submit`, { method: 'POST' });
    assert.deepEqual(await envelope.json(), { json: { errors: [['RATELIMIT', 'you are doing that too much. try again in 9 minutes.', '']] } });
  });

  test('a delay fault slows the request down and then lets it through', async () => {
    await control(sb.url, '/faults', { host: 'graph.facebook.com', kind: 'delay', delayMs: 150 });
    const started = Date.now();
    assert.equal((await me()).status, 200);
    assert.ok(Date.now() - started >= 140);
    assert.deepEqual(((await (await control(sb.url, '/faults')).json()) as { faults: unknown[] }).faults, []);
  });

  test('the journal lists what reached each platform, with secrets masked', async () => {
    await control(sb.url, '/requests', undefined, 'DELETE');
    await fetch(`${sb.url}/graph.facebook.com/v24.0/oauth/access_token?client_id=1&client_secret=supersecretvalue123&code=abc`);
    await fetch(`${sb.url}/open.tiktokapis.com/v2/oauth/token/`, { method: 'POST', body: new URLSearchParams({ client_key: 'k', client_secret: 'another-secret-value', code: 'c0de' }) });
    await me();
    const { requests } = (await (await control(sb.url, '/requests')).json()) as {
      requests: Array<{ method: string; host: string; path: string; query: Record<string, string>; body: Record<string, string>; status: number }>;
    };
    assert.equal(requests.length, 3);
    const [graph, tiktok, meRequest] = requests;
    assert.deepEqual([graph?.host, graph?.path, graph?.query.client_secret, graph?.query.code], ['graph.facebook.com', '/v24.0/oauth/access_token', '***e123', '***']);
    assert.deepEqual([tiktok?.method, tiktok?.body.client_secret, tiktok?.body.client_key], ['POST', '***alue', 'k']);
    assert.equal(meRequest?.status, 200);
    assert.doesNotMatch(JSON.stringify(requests), new RegExp(token));
    const filtered = (await (await control(sb.url, '/requests?host=open.tiktokapis.com')).json()) as { requests: unknown[] };
    assert.equal(filtered.requests.length, 1);
  });

  test('seeding, consent, settings, clock and reset through the control API', async () => {
    const seeded = (await (await control(sb.url, '/seed', {
      facebook: [{ name: 'Second User', pages: [{ name: 'Second Page', instagram: { username: 'second.ig' } }] }],
      reddit: { subreddits: [{ name: 'seeded', flairRequired: true, flairs: [{ text: 'A' }] }] },
    })).json()) as { facebook: Array<{ user: { id: string }; pages: Array<{ id: string }> }> };
    const second = seeded.facebook[0];
    assert.ok(second?.pages[0]?.id);
    await control(sb.url, '/consent', { platform: 'facebook', decision: 'allow', subjectId: second.user.id });
    const res = await fetch(`${sb.url}/www.facebook.com/v24.0/dialog/oauth?client_id=1&redirect_uri=${encodeURIComponent('https://a.example/cb')}&scope=pages_show_list&state=s`, { redirect: 'manual' });
    const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const t = ((await (await fetch(`${sb.url}/graph.facebook.com/v24.0/oauth/access_token?client_id=1&client_secret=s&redirect_uri=${encodeURIComponent('https://a.example/cb')}&code=${code}`)).json()) as { access_token: string }).access_token;
    const accounts = (await (await fetch(`${sb.url}/graph.facebook.com/v24.0/me/accounts?access_token=${t}`)).json()) as { data: Array<{ name: string }> };
    assert.deepEqual(accounts.data.map((p) => p.name), ['Second Page']);

    const settings = (await (await control(sb.url, '/settings', { processing: { tiktokMs: 10 } }, 'PATCH')).json()) as { processing: { tiktokMs: number } };
    assert.equal(settings.processing.tiktokMs, 10);
    assert.equal((await control(sb.url, '/settings', { nope: {} }, 'PATCH')).status, 400);
    const clock = (await (await control(sb.url, '/clock/advance', { seconds: 60 })).json()) as { offsetMs: number };
    assert.ok(clock.offsetMs >= 60_000);

    assert.equal((await control(sb.url, '/reset', {})).status, 200);
    assert.equal((await me()).status, 400, 'tokens are gone after reset');
    const people = (await (await control(sb.url, '/people')).json()) as { facebook: unknown[] };
    assert.equal(people.facebook.length, 1, 'the default seed is back');
  });

  test('expire and revoke through the control API', async () => {
    const t = await facebookToken(sb.url);
    await control(sb.url, '/tokens/expire', { token: t });
    assert.equal((await graphErrorOf(await fetch(`${sb.url}/graph.facebook.com/v24.0/me?access_token=${t}`))).error_subcode, 463);
    assert.equal((await control(sb.url, '/tokens/revoke', { token: 'nope' })).status, 400);
  });
});

describe('deterministic ids', () => {
  test('the same seed and the same calls give the same ids and tokens', async () => {
    const run = async () => {
      const sb = await startSandbox({ seed: 'fixed' });
      const token = await facebookToken(sb.url);
      const people = (await (await control(sb.url, '/people')).json()) as { facebook: Array<{ id: string }> };
      await sb.close();
      return [token, people.facebook[0]?.id];
    };
    assert.deepEqual(await run(), await run());
  });
});

describe('media downloads', () => {
  let files: FileServer;
  before(async () => {
    files = await fileServer({ '/big.mp4': { body: Buffer.concat([samples.mp4, Buffer.alloc(4096)]) }, '/slow.jpg': { body: samples.jpeg, delayMs: 300 } });
  });
  after(() => files.close());

  test('size limit, timeout, status and bad URLs', async () => {
    const ok = await fetchMedia(`${files.url}/big.mp4`, { maxBytes: 10_000, timeoutMs: 2000 });
    assert.ok(ok.ok && ok.type?.mime === 'video/mp4' && ok.size === samples.mp4.length + 4096);
    assert.deepEqual(await fetchMedia(`${files.url}/big.mp4`, { maxBytes: 1000, timeoutMs: 2000 }).then((r) => !r.ok && r.reason), 'too_large');
    assert.deepEqual(await fetchMedia(`${files.url}/slow.jpg`, { maxBytes: 10_000, timeoutMs: 100 }).then((r) => !r.ok && r.reason), 'timeout');
    assert.deepEqual(await fetchMedia(`${files.url}/none`, { maxBytes: 10_000, timeoutMs: 2000 }).then((r) => !r.ok && r.reason), 'http_status');
    assert.deepEqual(await fetchMedia('ftp://x/y', { maxBytes: 10_000, timeoutMs: 2000 }).then((r) => !r.ok && r.reason), 'bad_url');
    assert.deepEqual(await fetchMedia('http://127.0.0.1:1/x', { maxBytes: 10_000, timeoutMs: 2000 }).then((r) => !r.ok && r.reason), 'unreachable');
  });
});

describe('numeric ids', () => {
  test('never repeat within a kind, and keep the platform length', async () => {
    const { IdGenerator } = await import('../../src/sandbox/core/ids.ts');
    const ids = new IdGenerator('unique');
    const made = Array.from({ length: 20_000 }, () => ids.numeric('container', '17', 17));
    assert.equal(new Set(made).size, made.length);
    assert.ok(made.every((id) => id.length === 17 && id.startsWith('17')));
  });
});
