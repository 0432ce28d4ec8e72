// Consents with several choices: facebook with two Pages (the sandbox's default user) becomes a
// pending connection with its options and connection.pending; select connects one account per
// option; afterwards, or 30 minutes later, the pending connection answers 410 pending_expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { ManualClock } from './harness/clock.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';

interface PendingBody {
  id: string;
  platform: string;
  externalId: string | null;
  options: Array<{ id: string; name: string; kind: string }>;
  optionCount: number;
  expiresAt: string;
}

for (const dialect of DIALECTS) {
  describe(`pending connections (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    const clock = new ManualClock();
    let key: string;
    let organizationId: string;
    let otherKey: string;
    before(async () => {
      t = await startConnectApp(dialect, { clock });
      ({ key, organizationId } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
    });
    after(() => t.close());

    const pendingVia = async (externalId: string) => {
      const walk = await walkConnect(t, key, 'facebook', { redirectUrl: CLIENT_REDIRECT, externalId });
      assert.equal(walk.response.status, 302);
      const pendingId = walk.location?.searchParams.get('pendingId') ?? '';
      assert.match(pendingId, /^pend_/);
      return pendingId;
    };
    const get = async (id: string, k = key) => t.request(`/api/v1/connect/pending/${id}`, { key: k });
    const select = (id: string, optionIds: unknown, k = key) =>
      t.request(`/api/v1/connect/pending/${id}/select`, { key: k, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionIds }) });

    test('facebook with two Pages: pending with its options and connection.pending; the user token is sealed', async () => {
      const pendingId = await pendingVia('shop-1');
      const res = await get(pendingId);
      assert.equal(res.status, 200);
      const { pending } = (await res.json()) as { pending: PendingBody };
      assert.equal(pending.platform, 'facebook');
      assert.equal(pending.externalId, 'shop-1');
      assert.equal(pending.optionCount, 2);
      assert.deepEqual(pending.options.map((o) => o.name).sort(), ['Sandbox Bakery', 'Sandbox Books']);
      assert.ok(pending.options.every((o) => o.kind === 'page'));
      assert.equal(Date.parse(pending.expiresAt) - clock.now(), 30 * 60_000);
      assert.doesNotMatch(JSON.stringify(pending), /EAA/);
      const row = await t.runtime.deps.store.db.selectFrom('pending_connections').selectAll().where('id', '=', pendingId).executeTakeFirstOrThrow();
      assert.match(row.user_token_enc, /^v1\./);
      const event = await t.runtime.deps.store.db.selectFrom('events').selectAll().where('organization_id', '=', organizationId).where('type', '=', 'connection.pending').executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(event.data), { pendingId, platform: 'facebook', externalId: 'shop-1', optionCount: 2, expiresAt: pending.expiresAt });

      const list = (await (await t.request('/api/v1/connect/pending', { key })).json()) as { pending: PendingBody[] };
      assert.equal(list.pending[0]?.id, pendingId);
    });

    test('select connects one account per option; then 410 pending_expired', async () => {
      const pendingId = await pendingVia('shop-2');
      const { pending } = (await (await get(pendingId)).json()) as { pending: PendingBody };
      const unknown = await select(pendingId, [pending.options[0]?.id, 'nope']);
      assert.equal(unknown.status, 400);
      assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /optionIds\[1\]/);

      const res = await select(pendingId, pending.options.map((o) => o.id));
      assert.equal(res.status, 200);
      const { accounts } = (await res.json()) as { accounts: Array<{ id: string; platform: string; platformUserId: string; displayName: string; externalId: string }> };
      assert.equal(accounts.length, 2);
      assert.deepEqual(accounts.map((a) => a.platformUserId).sort(), pending.options.map((o) => o.id).sort());
      assert.ok(accounts.every((a) => a.platform === 'facebook' && a.externalId === 'shop-2'));

      const again = await select(pendingId, [pending.options[0]?.id]);
      assert.equal(again.status, 410);
      assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'pending_expired');
      assert.equal((await get(pendingId)).status, 410);
      const list = (await (await t.request('/api/v1/connect/pending', { key })).json()) as { pending: PendingBody[] };
      assert.ok(!list.pending.some((p) => p.id === pendingId));
    });

    test('after 30 minutes: 410 pending_expired, and it leaves the list', async () => {
      const pendingId = await pendingVia('shop-3');
      clock.advance(30 * 60_000 + 1);
      const { status } = await get(pendingId);
      assert.equal(status, 410);
      const res = await select(pendingId, ['x']);
      assert.equal(res.status, 410);
      const list = (await (await t.request('/api/v1/connect/pending', { key })).json()) as { pending: PendingBody[] };
      assert.ok(!list.pending.some((p) => p.id === pendingId));
    });

    test('the connect URL dies after 10 minutes', async () => {
      const start = await t.request('/api/v1/connect/facebook', { key });
      const { authUrl } = (await start.json()) as { authUrl: string };
      const { openConsent, submitConsent } = await import('./sandbox/helpers.ts');
      const callback = await submitConsent(await openConsent(authUrl));
      clock.advance(10 * 60_000 + 1);
      const res = await fetch(callback, { redirect: 'manual' });
      assert.equal(res.status, 400);
      assert.match(await res.text(), /expired/);
    });

    test('one Page granted connects it at once', async () => {
      const walk = await walkConnect(t, key, 'facebook', { redirectUrl: CLIENT_REDIRECT }, { untick: [[...t.sandbox.people.pages.values()].find((p) => p.name === 'Sandbox Books')?.id ?? ''] });
      assert.match(walk.location?.searchParams.get('accountId') ?? '', /^acc_/);
    });

    test('instagram with Facebook Login and two linked accounts: pending, then select', async () => {
      const { user } = t.sandbox.addFacebookUser({
        name: 'Two Shops',
        pages: [
          { name: 'Shop A', category: 'Shop', instagram: { username: 'shop.a', name: 'Shop A' } },
          { name: 'Shop B', category: 'Shop', instagram: { username: 'shop.b', name: 'Shop B' } },
        ],
      });
      const walk = await walkConnect(t, key, 'instagram', { login: 'facebook', redirectUrl: CLIENT_REDIRECT }, { subject: user.id });
      const pendingId = walk.location?.searchParams.get('pendingId') ?? '';
      const { pending } = (await (await get(pendingId)).json()) as { pending: PendingBody };
      assert.deepEqual(pending.options.map((o) => o.kind), ['instagram_account', 'instagram_account']);
      const res = await select(pendingId, [pending.options[1]?.id]);
      assert.equal(res.status, 200);
      const { accounts } = (await res.json()) as { accounts: Array<{ platform: string; username: string }> };
      assert.deepEqual(accounts.map((a) => [a.platform, a.username]), [['instagram', 'shop.b']]);
    });

    test("another organization's pending connection is 404", async () => {
      const pendingId = await pendingVia('shop-4');
      assert.equal((await get(pendingId, otherKey)).status, 404);
      assert.equal((await select(pendingId, ['x'], otherKey)).status, 404);
      const list = (await (await t.request('/api/v1/connect/pending', { key: otherKey })).json()) as { pending: PendingBody[] };
      assert.equal(list.pending.length, 0);
    });
  });
}
