// The HTTP ground rules, on both stores: authentication, the error shape of Fastify's own
// errors and of Node's parser (on a bare socket), field-naming 400s, NUL characters refused,
// probes, and tenant isolation through the shared route checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { rawRequest, type RawResponse } from './harness/raw-http.ts';
import { newId } from '../src/lib/ids.ts';
import { revokeKey } from '../src/modules/keys/service.ts';
import { systemClock } from '../src/lib/clock.ts';

for (const dialect of DIALECTS) {
  describe(`HTTP basics [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await startApp(dialect);
      ({ key } = await t.tenant());
    });
    after(() => t.close());

    test('a valid key lists accounts', async () => {
      const res = await t.request('/api/v1/accounts', { key });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { accounts: [] });
    });

    for (const [name, header] of [
      ['missing', undefined],
      ['not bearer', 'Basic abc'],
      ['malformed', 'Bearer sk_short'],
      ['unknown', `Bearer sk_${'a'.repeat(43)}`],
    ] as const) {
      test(`a ${name} key is 401 with the error shape`, async () => {
        const res = await t.request('/api/v1/accounts', header ? { headers: { authorization: header } } : {});
        assert.equal(res.status, 401);
        const body = (await res.json()) as { error: { message: string; code?: string } };
        assert.equal(typeof body.error.message, 'string');
        assert.equal(body.error.code, undefined);
      });
    }

    test('unknown route is 404 with the error shape', async () => {
      const res = await t.request('/api/v1/nothing-here', { key });
      assert.equal(res.status, 404);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /not found/);
    });

    test('a query parameter over its limit is a 400 naming it', async () => {
      const res = await t.request(`/api/v1/accounts?externalId=${'x'.repeat(201)}`, { key });
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /^query\.externalId: /);
    });

    test('probes answer without a key', async () => {
      assert.deepEqual(await (await t.request('/healthz')).json(), { status: 'ok' });
      assert.deepEqual(await (await t.request('/readyz')).json(), { status: 'ready' });
    });

    test("another organization's account is 404, like an unknown one", async () => {
      const other = await t.tenant();
      const now = Date.now();
      const accountId = newId('account');
      await t.runtime.deps.store.db
        .insertInto('accounts')
        .values({ id: accountId, organization_id: other.organizationId, platform: 'reddit', platform_user_id: 'u1', username: 'someone', display_name: null, avatar_url: null, external_id: 'ext-1', status: 'active', approval_required: 0, access_token_enc: null, refresh_token_enc: null, token_expires_at: null, scopes: '', metadata: '{}', connected_at: now, updated_at: now })
        .execute();
      const own = await t.request(`/api/v1/accounts/${accountId}`, { key: other.key });
      assert.equal(own.status, 200);
      assert.equal(((await own.json()) as { account: { id: string } }).account.id, accountId);
      const foreign = await t.request(`/api/v1/accounts/${accountId}`, { key });
      assert.equal(foreign.status, 404);
      const unknown = await t.request(`/api/v1/accounts/${newId('account')}`, { key });
      assert.equal(unknown.status, 404);
      assert.deepEqual(await foreign.json(), await unknown.json());
      const list = (await (await t.request('/api/v1/accounts?externalId=ext-1', { key })).json()) as { accounts: unknown[] };
      assert.equal(list.accounts.length, 0);
    });
    test('a revoked key is 401', async () => {
      const other = await t.tenant();
      assert.equal((await t.request('/api/v1/accounts', { key: other.key })).status, 200);
      await revokeKey(t.runtime.deps.store, systemClock, other.keyId);
      assert.equal((await t.request('/api/v1/accounts', { key: other.key })).status, 401);
    });

    /** Exactly {"error": {"message", "code"?}}. */
    const assertErrorShape = (body: unknown, message?: RegExp) => {
      assert.ok(typeof body === 'object' && body !== null && 'error' in body, JSON.stringify(body));
      assert.deepEqual(Object.keys(body), ['error']);
      const error = body.error as Record<string, unknown>;
      assert.equal(typeof error.message, 'string');
      assert.ok(Object.keys(error).every((k) => k === 'message' || (k === 'code' && typeof error.code === 'string')), JSON.stringify(error));
      if (message) assert.match(String(error.message), message);
    };

    describe('errors raised before any route', () => {
      test('%ZZ in an id is a 400 in the error shape, without the path', async () => {
        const res = await t.request('/api/v1/posts/%ZZ', { key });
        assert.equal(res.status, 400);
        assert.ok(res.headers.get('request-id'));
        const text = await res.text();
        assertErrorShape(JSON.parse(text), /^path: not valid percent-encoded UTF-8$/);
        assert.ok(!text.includes('%ZZ'));
      });

      test('a 10,000 character id is a 414 in the error shape, without the id', async () => {
        const res = await t.request(`/api/v1/posts/${'a'.repeat(10_000)}`, { key });
        assert.equal(res.status, 414);
        const text = await res.text();
        assertErrorShape(JSON.parse(text), /^path: a parameter is longer than 100 characters$/);
        assert.ok(text.length < 200);
      });

      test('a 404 shows a short plain path, and not a long or odd one', async () => {
        assert.equal((await (await t.request('/api/v1/nothing-here', { key })).json() as { error: { message: string } }).error.message, 'Route GET /api/v1/nothing-here not found');
        for (const path of [`/api/v1/x/${'b'.repeat(300)}`, '/api/v1/x/%3Cscript%3E', '/api/v1/x/%00']) {
          const res = await t.request(path, { key });
          assert.equal(res.status, 404);
          const text = await res.text();
          assertErrorShape(JSON.parse(text), /^Route not found$/);
        }
      });

      test('an odd Content-Type is not shown back', async () => {
        const res = await t.request('/api/v1/webhooks', { key, method: 'POST', body: '{}', headers: { 'content-type': 'application/<script>; x=%ZZ' } });
        assert.equal(res.status, 415);
        const text = await res.text();
        assertErrorShape(JSON.parse(text), /^this Content-Type is not supported here/);
        assert.ok(!text.includes('script') && !text.includes('%ZZ'));
      });
    });

    describe('NUL characters and lone surrogates, refused before the store', () => {
      test('in a path id, a query value and a query name: a 400 naming it', async () => {
        for (const [path, message] of [
          ['/api/v1/posts/post_%00', 'path.id: must not contain a NUL character'],
          ['/api/v1/accounts?externalId=a%00b', 'query.externalId: must not contain a NUL character'],
          ['/api/v1/posts?status=%00', 'query.status: must not contain a NUL character'],
          ['/api/v1/accounts?a%00=1', 'query: a field name must not contain a NUL character'],
        ] as const) {
          const res = await t.request(path, { key });
          assert.equal(res.status, 400, path);
          const body = await res.json();
          assertErrorShape(body);
          assert.equal((body as { error: { message: string } }).error.message, message);
        }
      });

      test('in a JSON body, nested, or in a field name: a 400 naming the field, and nothing stored', async () => {
        for (const [body, message] of [
          ['{"content":"hi\\u0000","platforms":[]}', 'content: must not contain a NUL character'],
          ['{"content":"hi","platforms":[{"accountId":"acc_1","platformSpecificData":{"title":"a\\u0000"}}]}', 'platforms[0].platformSpecificData.title: must not contain a NUL character'],
          ['{"content":"hi","platforms":[{"accountId":"acc_1","platformSpecificData":{"ti\\u0000tle":"a"}}]}', 'platforms[0].platformSpecificData: a field name must not contain a NUL character'],
          ['{"content":"\\ud800","platforms":[]}', 'content: must not contain a lone UTF-16 surrogate'],
          ['{"content":"x\\udc00y","platforms":[]}', 'content: must not contain a lone UTF-16 surrogate'],
        ] as const) {
          const res = await t.request('/api/v1/posts', { key, method: 'POST', body, headers: { 'content-type': 'application/json' } });
          assert.equal(res.status, 400, body);
          assert.equal(((await res.json()) as { error: { message: string } }).error.message, message);
        }
        const posts = (await (await t.request('/api/v1/posts', { key })).json()) as { posts: unknown[] };
        assert.equal(posts.posts.length, 0);
      });

      test('a surrogate pair (an emoji) is text like any other', async () => {
        const res = await t.request('/api/v1/accounts?externalId=%F0%9F%92%A9', { key });
        assert.equal(res.status, 200);
      });

      test('nesting past 32 levels is a 400, however deep it goes', async () => {
        const deep = `{"content":"x","platforms":[{"accountId":"a","platformSpecificData":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]}`;
        const res = await t.request('/api/v1/posts', { key, method: 'POST', body: deep, headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 400);
        assert.equal(((await res.json()) as { error: { message: string } }).error.message, 'platforms[0].platformSpecificData.x: nested too deeply (more than 32 levels)');
      });
    });

    describe("Node's parser errors, on a bare socket", () => {
      const auth = () => `Authorization: Bearer ${key}\r\n`;
      /** One answer, in the error shape, and the connection closed. */
      const refused = async (bytes: string | Buffer, status: number, message: RegExp, options = {}): Promise<RawResponse> => {
        const { responses, closed } = await rawRequest(t.url, bytes, options);
        assert.ok(closed, 'the connection is closed');
        const last = responses.at(-1);
        assert.ok(last, 'an answer');
        assert.equal(last.status, status);
        assert.match(last.headers['content-type'] ?? '', /^application\/json/);
        assertErrorShape(JSON.parse(last.body), message);
        return last;
      };

      test('headers over the size limit: 431', async () => {
        await refused(`GET /api/v1/accounts HTTP/1.1\r\nHost: x\r\n${auth()}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, /too large/);
      });

      test('a NUL in a header value (x-request-id): 400', async () => {
        const body = '{"content":"x","platforms":[]}';
        await refused(`POST /api/v1/posts HTTP/1.1\r\nHost: x\r\n${auth()}x-request-id: a\0b\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 400, /^header: /);
      });

      test('a Content-Length shorter than the body: the leftover bytes are a 400, not echoed', async () => {
        const answer = await refused(`PATCH /api/v1/accounts/acc_x HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}LEFTOVER-BYTES`, 400, /^Malformed HTTP request$/);
        assert.ok(!answer.body.includes('LEFTOVER'));
      });

      test('a Content-Length longer than the body, the client done sending: 400', async () => {
        await refused(`PATCH /api/v1/accounts/acc_x HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{}`, 400, /./, { endAfterSend: true });
      });

      for (const [name, headers, message] of [
        ['a malformed Content-Length', 'Content-Length: abc\r\n', /^Content-Length /],
        ['two Content-Lengths', 'Content-Length: 2\r\nContent-Length: 3\r\n', /^Content-Length /],
        ['a bad chunk size', 'Transfer-Encoding: chunked\r\n', /chunked/],
      ] as const) {
        test(`${name}: 400`, async () => {
          await refused(`PATCH /api/v1/accounts/acc_x HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\n${headers}\r\nZZ\r\n{}\r\n0\r\n\r\n`, 400, message);
        });
      }

      for (const [name, line] of [
        ['an unknown method', 'BREW /api/v1/accounts HTTP/1.1'],
        ['an unknown HTTP version', 'GET /api/v1/accounts HTTP/9.9'],
        ['a NUL in the request line', 'GET /api/v1/posts/a\0b HTTP/1.1'],
        ['a space in the path', 'GET /api/v1/posts/a b HTTP/1.1'],
      ] as const) {
        test(`${name}: 400`, async () => {
          await refused(`${line}\r\nHost: x\r\n${auth()}\r\n`, 400, /^Malformed HTTP request$/);
        });
      }

      test('a body that stops arriving, the connection left open: 408 after the idle timeout', async () => {
        const idle = await startApp(dialect, { env: { BODY_IDLE_TIMEOUT_MS: '200' } });
        try {
          const other = await idle.tenant();
          const started = Date.now();
          const { responses, closed } = await rawRequest(idle.url, `PATCH /api/v1/accounts/acc_x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${other.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}`, { waitMs: 3_000 });
          assert.ok(closed, 'the connection is closed');
          assert.ok(Date.now() - started >= 180);
          assert.equal(responses[0]?.status, 408);
          assertErrorShape(JSON.parse(responses[0]?.body ?? ''), /^body: no byte of it arrived for 200 ms/);
        } finally {
          await idle.close();
        }
      });

      test('no Host header on HTTP/1.1: 400 naming it', async () => {
        const { responses } = await rawRequest(t.url, `GET /api/v1/accounts HTTP/1.1\r\n${auth()}\r\n`, { waitMs: 500 });
        assert.equal(responses[0]?.status, 400);
        assertErrorShape(JSON.parse(responses[0]?.body ?? ''), /^header\.host: required$/);
      });
    });

    describe('bodies', () => {
      let accountId: string;
      before(async () => {
        const caller = await t.request('/api/v1/accounts', { key });
        assert.equal(caller.status, 200);
        const org = (await t.runtime.deps.store.db.selectFrom('api_keys').select('organization_id').where('prefix', '=', key.slice(0, 11)).executeTakeFirstOrThrow()).organization_id;
        accountId = newId('account');
        const now = Date.now();
        await t.runtime.deps.store.db
          .insertInto('accounts')
          .values({ id: accountId, organization_id: org, platform: 'threads', platform_user_id: 'u2', username: 'me', display_name: null, avatar_url: null, external_id: null, status: 'active', approval_required: 0, access_token_enc: null, refresh_token_enc: null, token_expires_at: null, scopes: '', metadata: '{}', connected_at: now, updated_at: now })
          .execute();
      });
      const patch = (body: string, contentType = 'application/json') =>
        t.request(`/api/v1/accounts/${accountId}`, { key, method: 'PATCH', body, headers: { 'content-type': contentType } });
      const message = async (res: Response) => ((await res.json()) as { error: { message: string; code?: string } }).error;

      test('PATCH sets and clears externalId, and the store has it', async () => {
        // An undeclared field is refused, not ignored (issue 29, overriding DESIGN §2), and nothing changes.
        const typo = await patch(JSON.stringify({ externalId: 'client-41', ignored: true }));
        assert.equal(typo.status, 400);
        assert.equal((await message(typo)).message, 'ignored: unknown field');
        const set = await patch(JSON.stringify({ externalId: 'client-42' }));
        assert.equal(set.status, 200);
        assert.equal(((await set.json()) as { account: { externalId: string } }).account.externalId, 'client-42');
        const row = await t.runtime.deps.store.db.selectFrom('accounts').select('external_id').where('id', '=', accountId).executeTakeFirstOrThrow();
        assert.equal(row.external_id, 'client-42');
        const cleared = await patch(JSON.stringify({ externalId: null }));
        assert.equal(((await cleared.json()) as { account: { externalId: null } }).account.externalId, null);
      });

      test('a wrong type is a 400 naming the field, not a coercion', async () => {
        const res = await patch(JSON.stringify({ externalId: 42 }));
        assert.equal(res.status, 400);
        assert.match((await message(res)).message, /^externalId: /);
        const long = await patch(JSON.stringify({ externalId: 'x'.repeat(201) }));
        assert.equal(long.status, 400);
        assert.match((await message(long)).message, /^externalId: /);
        const missing = await patch(JSON.stringify({}));
        assert.equal((await message(missing)).message, 'externalId: required');
      });

      test('malformed JSON is a 400 with the error shape', async () => {
        const res = await patch('{"externalId": ');
        assert.equal(res.status, 400);
        assert.equal((await message(res)).message, 'body: malformed JSON');
      });

      test('a wrong content type is a 415 with the error shape', async () => {
        const res = await patch('externalId=x', 'text/plain');
        assert.equal(res.status, 415);
        assert.match((await message(res)).message, /text\/plain/);
      });

      test('a body over the limit is a 413 payload_too_large', async () => {
        const res = await patch(JSON.stringify({ externalId: 'x'.repeat(2 * 1024 * 1024) }));
        assert.equal(res.status, 413);
        assert.equal((await message(res)).code, 'payload_too_large');
      });

      test("PATCH of another organization's account is 404 and changes nothing", async () => {
        const other = await t.tenant();
        const res = await t.request(`/api/v1/accounts/${accountId}`, { key: other.key, method: 'PATCH', body: JSON.stringify({ externalId: 'stolen' }), headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 404);
        const row = await t.runtime.deps.store.db.selectFrom('accounts').select('external_id').where('id', '=', accountId).executeTakeFirstOrThrow();
        assert.notEqual(row.external_id, 'stolen');
      });
    });
  });
}
