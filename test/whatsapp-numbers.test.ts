// The connected number over HTTP against the in-process sandbox, on both stores: its record
// (stored, served for 10 minutes, read again with refresh=true or after registering), the
// registration with a PIN or the PIN kept from before, the Cloud API's refusals by their
// contract codes, another organization's account (404) and a non-WhatsApp account (400
// not_supported) without a platform call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addRedditAccount, api, callsSince, codeOf, connectNumber, control, firstPhone, firstWaba, mark, startWhatsAppApp, type WhatsAppApp } from './whatsapp-support.ts';

interface PhoneNumber {
  accountId: string;
  phoneNumberId: string;
  wabaId: string | null;
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  messagingLimit: string | null;
  onboarding: { registered: boolean; status: string | null; codeVerificationStatus: string | null; nameStatus: string | null; platformType: string | null; accountMode: string | null };
  refreshedAt: string;
}

for (const dialect of DIALECTS) {
  describe(`whatsapp phone number [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: WhatsAppApp;
    let key: string;
    let org: string;
    let otherKey: string;
    let accountId: string;

    before(async () => {
      t = await startWhatsAppApp(dialect);
      ({ key, organizationId: org } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
      accountId = await connectNumber(t, key);
    });
    after(() => t.close());

    const phonePath = () => `/whatsapp/accounts/${accountId}/phone-number`;

    test('the record: display number, verified name, quality, limit and onboarding, stored and served until refreshed', async () => {
      const seq = mark(t);
      const first = await api(t, key, 'GET', phonePath());
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const record = first.body.phoneNumber as PhoneNumber;
      const phone = firstPhone(t);
      assert.deepEqual(
        { ...record, refreshedAt: null },
        {
          accountId,
          phoneNumberId: phone.id,
          wabaId: firstWaba(t).id,
          displayPhoneNumber: phone.displayPhoneNumber,
          verifiedName: phone.verifiedName,
          qualityRating: 'GREEN',
          messagingLimit: 'TIER_1K',
          onboarding: { registered: false, status: 'PENDING', codeVerificationStatus: 'VERIFIED', nameStatus: 'APPROVED', platformType: 'NOT_APPLICABLE', accountMode: 'LIVE' },
          refreshedAt: null,
        },
      );
      const calls = callsSince(t, seq);
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.path, `/v24.0/${phone.id}`);
      assert.match(String(calls[0]?.query.fields), /quality_rating/);
      assert.match(String(calls[0]?.query.fields), /messaging_limit_tier/);
      assert.match(calls[0]?.headers.authorization ?? '', /^Bearer \*\*\*/);
      const stored = await t.runtime.deps.store.db.selectFrom('whatsapp_numbers').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
      assert.equal(stored.waba_id, firstWaba(t).id);
      assert.equal(stored.phone_number_id, phone.id);

      // Served from the store: the sandbox hears nothing, even when the number changed.
      await control(t, 'whatsapp/phone-numbers/quality', { phoneNumberId: phone.id, event: 'DOWNGRADE', qualityRating: 'YELLOW', messagingLimitTier: 'TIER_250' });
      const again = mark(t);
      const cached = await api(t, key, 'GET', phonePath());
      assert.equal((cached.body.phoneNumber as PhoneNumber).qualityRating, 'GREEN');
      assert.equal(callsSince(t, again).length, 0);

      const refreshed = await api(t, key, 'GET', `${phonePath()}?refresh=true`);
      assert.equal(refreshed.status, 200);
      const now = refreshed.body.phoneNumber as PhoneNumber;
      assert.deepEqual([now.qualityRating, now.messagingLimit], ['YELLOW', 'TIER_250']);
      assert.equal(callsSince(t, again).length, 1);
    });

    test('register with a PIN: the request the sandbox received, the number registered, the record read again', async () => {
      const seq = mark(t);
      const res = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/register`, { pin: '246810' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { ok: true });
      const calls = callsSince(t, seq);
      assert.deepEqual(calls.map((c) => [c.method, c.path]), [['POST', `/v24.0/${firstPhone(t).id}/register`]]);
      assert.equal((calls[0]?.body as { messaging_product: string }).messaging_product, 'whatsapp');
      assert.equal(firstPhone(t).registered, true);
      assert.equal(firstPhone(t).pin, '246810');
      // The PIN is kept sealed, never in clear.
      const stored = await t.runtime.deps.store.db.selectFrom('whatsapp_numbers').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
      assert.ok(stored.pin_enc && !stored.pin_enc.includes('246810'));
      // The next read goes to WhatsApp and shows the number registered.
      const record = (await api(t, key, 'GET', `/whatsapp/accounts/${accountId}/phone-number`)).body.phoneNumber as PhoneNumber;
      assert.deepEqual([record.onboarding.registered, record.onboarding.platformType, record.onboarding.status], [true, 'CLOUD_API', 'CONNECTED']);
    });

    test('re-register without a PIN uses the one kept; a wrong PIN is the platform refusing it', async () => {
      firstPhone(t).registered = false;
      const seq = mark(t);
      const res = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/register`, {});
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(callsSince(t, seq).length, 1);
      assert.equal(firstPhone(t).registered, true);
      const wrong = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/register`, { pin: '111111' });
      assert.deepEqual(codeOf(wrong), [400, 'invalid_request']);
      assert.match(wrong.body.error?.message ?? '', /PIN/);
    });

    test('a number never registered through the service needs the pin: 400 naming it, no platform call', async () => {
      const { key: freshKey } = await t.tenant();
      const fresh = await connectNumber(t, freshKey);
      const seq = mark(t);
      const res = await api(t, freshKey, 'POST', `/whatsapp/accounts/${fresh}/register`);
      assert.equal(res.status, 400);
      assert.match(res.body.error?.message ?? '', /^pin: required/);
      const badPin = await api(t, freshKey, 'POST', `/whatsapp/accounts/${fresh}/register`, { pin: '12ab' });
      assert.equal(badPin.status, 400);
      assert.match(badPin.body.error?.message ?? '', /^pin:/);
      assert.equal(callsSince(t, seq).length, 0);
    });

    test('connect with register keeps the PIN for later registrations', async () => {
      const { key: k } = await t.tenant();
      const id = await connectNumber(t, k, { register: true, pin: '246810' });
      firstPhone(t).registered = false;
      const res = await api(t, k, 'POST', `/whatsapp/accounts/${id}/register`, {});
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(firstPhone(t).registered, true);
    });

    test('refusals by their Cloud API code: register rate limit, restriction, WABA rate limit, a server error', async () => {
      await control(t, 'whatsapp/faults', { code: 133016, path: '/*/register' });
      const limited = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/register`, { pin: '246810' });
      assert.deepEqual(codeOf(limited), [429, 'rate_limited']);
      assert.match(limited.body.error?.message ?? '', /register deregister rate limit/);
      await control(t, 'whatsapp/faults', { code: 131031, path: '/*/register' });
      assert.deepEqual(codeOf(await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/register`, { pin: '246810' })), [403, 'account_restricted']);
      await control(t, 'whatsapp/faults', { code: 80007, path: `/${firstPhone(t).id}`, method: 'GET' });
      assert.deepEqual(codeOf(await api(t, key, 'GET', `/whatsapp/accounts/${accountId}/phone-number?refresh=true`)), [429, 'rate_limited']);
      await control(t, 'whatsapp/faults', { code: 131000, path: `/${firstPhone(t).id}`, method: 'GET' });
      assert.deepEqual(codeOf(await api(t, key, 'GET', `/whatsapp/accounts/${accountId}/phone-number?refresh=true`)), [502, 'platform_error']);
    });

    test("another organization's account is 404, a reddit account 400 not_supported, neither calls the platform", async () => {
      const reddit = await addRedditAccount(t, org);
      const seq = mark(t);
      for (const [method, path, body] of [
        ['GET', '/phone-number', undefined],
        ['POST', '/register', { pin: '123456' }],
      ] as const) {
        assert.deepEqual(codeOf(await api(t, otherKey, method, `/whatsapp/accounts/${accountId}${path}`, body)), [404, null]);
        assert.deepEqual(codeOf(await api(t, key, method, `/whatsapp/accounts/${reddit}${path}`, body)), [400, 'not_supported']);
        assert.deepEqual(codeOf(await api(t, key, method, `/whatsapp/accounts/acc_nothing${path}`, body)), [404, null]);
      }
      assert.equal(callsSince(t, seq).length, 0);
      assert.match((await api(t, key, 'GET', `/whatsapp/accounts/${accountId}/phone-number?refresh=maybe`)).body.error?.message ?? '', /^query\.refresh/);
    });

    test('a revoked token marks the account needs_reconnect (409) and later calls stop before the platform', async () => {
      const { key: k } = await t.tenant();
      const id = await connectNumber(t, k);
      await control(t, 'whatsapp/faults', { code: 190, path: `/${firstPhone(t).id}`, method: 'GET' });
      assert.deepEqual(codeOf(await api(t, k, 'GET', `/whatsapp/accounts/${id}/phone-number`)), [409, 'reconnect_required']);
      const row = await t.runtime.deps.store.db.selectFrom('accounts').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'needs_reconnect');
      const seq = mark(t);
      assert.deepEqual(codeOf(await api(t, k, 'POST', `/whatsapp/accounts/${id}/register`, { pin: '246810' })), [409, 'reconnect_required']);
      assert.equal(callsSince(t, seq).length, 0);
    });
  });
}
