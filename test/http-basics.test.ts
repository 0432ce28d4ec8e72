// The HTTP ground rules, on both stores: authentication, the error shape of Fastify's own
// errors, field-naming 400s, probes, and tenant isolation through the shared route checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
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
        const set = await patch(JSON.stringify({ externalId: 'client-42', ignored: true }));
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
