// The TypeScript SDK (packages/client) against the real server, on both stores: typed calls with
// platform options (an unknown key still a warning from the server), the API key, an x-request-id
// on every write that makes a retried write answer once, errors as typed exceptions with the
// API's code, 429 retried after Retry-After, network errors retried only when safe, a 5xx from a
// real proxy on loopback retried, paged lists as async iterators, and a webhook delivery from the
// service verified and typed (a tampered one refused).
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { InvalidRequestError, NetworkError, NotFoundError, RateLimitError, ServerError, SocialApi, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../packages/client/src/index.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { addAccount, startPostsApp, type PostsApp } from './posts-support.ts';
import { connectNumber } from './whatsapp-support.ts';

/** fetch, recording what each request carried. */
function recording(): { fetch: typeof fetch; sent: Array<{ method: string; url: string; headers: Headers }> } {
  const sent: Array<{ method: string; url: string; headers: Headers }> = [];
  return {
    sent,
    fetch: (input, init) => {
      sent.push({ method: init?.method ?? 'GET', url: input instanceof Request ? input.url : input.toString(), headers: new Headers(init?.headers) });
      return fetch(input, init);
    },
  };
}

/** A real HTTP proxy in front of the service that answers 503 to the first `failures` requests. */
async function flakyProxy(target: string, failures: number): Promise<{ url: string; seen: number; close: () => Promise<void> }> {
  const state = { seen: 0 };
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    state.seen++;
    if (state.seen <= failures) {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'unavailable', message: 'try again' } }));
      return;
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get seen() {
      return state.seen;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const dialect of DIALECTS) {
  describe(`SDK against the real server [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let organizationId: string;
    let reddit: string;
    let receiver: Receiver;
    before(async () => {
      t = await startPostsApp(dialect, { worker: true, env: { JOB_POLL_INTERVAL_MS: '50' } });
      ({ key, organizationId } = await t.tenant());
      reddit = (await addAccount(t, organizationId, 'reddit')).id;
      receiver = await new Receiver().start();
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    test('typed calls: a draft with reddit options; an unknown key (past the types) comes back as a warning', async () => {
      const rec = recording();
      const api = new SocialApi({ apiKey: key, baseUrl: t.url, fetch: rec.fetch });
      const { accounts } = await api.listAccounts();
      assert.ok(accounts.some((a) => a.id === reddit));
      const created = await api.createPost({ body: { content: 'Hello from the SDK', platforms: [{ accountId: reddit, platformSpecificData: { subreddit: 'typescript', title: 'Hi' } }] } });
      assert.equal(created.post.status, 'draft');
      const again = await api.getPost({ path: { id: created.post.id } });
      assert.equal(again.post.content, 'Hello from the SDK');
      // @ts-expect-error a misspelt option is a type error; the server skips it with a warning.
      const misspelt = await api.createPost({ body: { content: 'x', platforms: [{ accountId: reddit, platformSpecificData: { subredit: 'typescript' } }] } });
      assert.deepEqual(misspelt.post.targets[0]?.warnings.map((w) => w.key), ['subredit']);
      for (const request of rec.sent) assert.equal(request.headers.get('authorization'), `Bearer ${key}`);
      const writes = rec.sent.filter((r) => r.method !== 'GET');
      assert.equal(writes.length, 2);
      for (const write of writes) assert.match(write.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(rec.sent.find((r) => r.method === 'GET')?.headers.get('x-request-id'), null);
    });

    test('a write sent twice with one x-request-id is answered once', async () => {
      const api = new SocialApi({ apiKey: key, baseUrl: t.url });
      const body = { content: 'Once', platforms: [{ accountId: reddit }] };
      const first = await api.createPost({ body, requestId: 'sdk-once-1' });
      const second = await api.createPost({ body, requestId: 'sdk-once-1' });
      assert.equal(second.post.id, first.post.id);
    });

    test('errors are typed exceptions carrying the code', async () => {
      const api = new SocialApi({ apiKey: key, baseUrl: t.url });
      await assert.rejects(api.getPost({ path: { id: 'post_missing' } }), (error: unknown) => error instanceof NotFoundError && error.status === 404 && error.code === 'not_found' && typeof error.requestId === 'string');
      // @ts-expect-error an undeclared field is a type error, and a 400 naming it from the server.
      await assert.rejects(api.createPost({ body: { content: 'x', platforms: [{ accountId: reddit }], publishnow: true } }), (error: unknown) => error instanceof InvalidRequestError && error.code === 'invalid_request' && /publishnow/.test(error.message));
      const wrongKey = new SocialApi({ apiKey: 'sk_wrong', baseUrl: t.url });
      await assert.rejects(wrongKey.listAccounts(), (error: unknown) => error instanceof Error && 'status' in error && error.status === 401);
    });

    test('a 5xx is retried with the same x-request-id, and the write happens once', async () => {
      const proxy = await flakyProxy(t.url, 2);
      try {
        const rec = recording();
        const api = new SocialApi({ apiKey: key, baseUrl: proxy.url, retryDelayMs: 10, fetch: rec.fetch });
        const created = await api.createPost({ body: { content: 'Through a flaky proxy', platforms: [{ accountId: reddit }] } });
        assert.equal(proxy.seen, 3);
        assert.equal(new Set(rec.sent.map((r) => r.headers.get('x-request-id'))).size, 1);
        const { posts } = await new SocialApi({ apiKey: key, baseUrl: t.url }).listPosts();
        assert.equal(posts.filter((p) => p.id === created.post.id).length, 1);
        // Out of retries: a ServerError with the answer's code.
        const failing = await flakyProxy(t.url, 10);
        await assert.rejects(new SocialApi({ apiKey: key, baseUrl: failing.url, retryDelayMs: 1, maxRetries: 2 }).listPosts(), (error: unknown) => error instanceof ServerError && error.code === 'unavailable');
        assert.equal(failing.seen, 3);
        await failing.close();
      } finally {
        await proxy.close();
      }
    });

    test('network errors: a read is retried, then NetworkError', async () => {
      const closed = await flakyProxy(t.url, 0);
      await closed.close();
      const rec = recording();
      const api = new SocialApi({ apiKey: key, baseUrl: closed.url, retryDelayMs: 1, maxRetries: 2, fetch: rec.fetch });
      await assert.rejects(api.listPosts(), (error: unknown) => error instanceof NetworkError && error.code === 'network_error');
      assert.equal(rec.sent.length, 3);
    });

    test('paged lists are async iterators: every WhatsApp template, two a page', async () => {
      const rec = recording();
      const api = new SocialApi({ apiKey: key, baseUrl: t.url, fetch: rec.fetch });
      const conversations = [];
      for await (const conversation of api.paginate('listConversations', { query: { limit: 1 } })) conversations.push(conversation.id);
      assert.deepEqual(conversations, []);
      const number = await connectNumber(t, key);
      const names = ['sdk_one', 'sdk_two', 'sdk_three'];
      for (const name of names) {
        await api.createWhatsAppTemplate({ path: { id: number }, body: { name, language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale on now' }] } });
      }
      const seen: string[] = [];
      rec.sent.length = 0;
      for await (const template of api.paginate('listWhatsAppTemplates', { path: { id: number }, query: { category: 'MARKETING', limit: 2 } })) seen.push(template.name);
      assert.deepEqual(seen.filter((name) => names.includes(name)), names);
      assert.equal(rec.sent.length, Math.ceil(seen.length / 2));
      assert.ok(rec.sent.slice(1).every((r) => new URL(r.url).searchParams.has('after')));
    });

    test('a webhook delivery from the service is verified and typed; a tampered one is refused', async () => {
      const api = new SocialApi({ apiKey: key, baseUrl: t.url });
      const { webhook } = await api.createWebhook({ body: { url: receiver.url } });
      await api.testWebhook({ path: { id: webhook.id } });
      const delivery = await waitFor(() => receiver.received.find((r) => r.body.includes(webhook.id)), 10_000, 'the test delivery');
      const event: WebhookEvent = verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: webhook.secret });
      assert.equal(event.event, 'webhook.test');
      if (event.event === 'webhook.test') assert.equal(event.data.webhookId, webhook.id);
      assert.throws(
        () => verifyWebhook({ body: delivery.body.replace('webhook.test', 'webhook.tost'), headers: delivery.headers, secret: webhook.secret }),
        (error: unknown) => error instanceof WebhookVerificationError && error.code === 'bad_signature',
      );
      assert.throws(() => verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: webhook.secret, now: Date.now() + 3_600_000 }), { code: 'stale_timestamp' });
    });

    test('a 429 is retried after its Retry-After, then RateLimitError', async () => {
      const limited = await startPostsApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '2' } });
      try {
        const { key: limitedKey } = await limited.tenant();
        const rec = recording();
        const api = new SocialApi({ apiKey: limitedKey, baseUrl: limited.url, maxRetries: 2, maxDelayMs: 20, fetch: rec.fetch });
        await api.listPosts();
        await api.listPosts();
        await assert.rejects(api.listPosts(), (error: unknown) => error instanceof RateLimitError && error.code === 'rate_limited');
        assert.equal(rec.sent.length, 2 + 3);
      } finally {
        await limited.close();
      }
    });
  });
}
