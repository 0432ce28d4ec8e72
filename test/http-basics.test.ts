// The HTTP ground rules, on both stores: authentication, the error shape of Fastify's own
// errors, field-naming 400s, probes, and tenant isolation through the shared route checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { newId } from '../src/lib/ids.ts';

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
  });
}
