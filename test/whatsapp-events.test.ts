// WhatsApp business-account webhooks as the contract's events, on both stores: the sandbox's
// signed webhooks (template review, template quality and category, the number's quality and
// limit) reach the service's Meta callback, platform_event.process records an inbox event and
// emits template.status, template.quality and account.quality with exactly the contract's data
// to a real receiver, for every organization's account of that business account, once per
// platform event (a retry in other bytes emits nothing); account_update is ignored with a note.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sandboxApp } from '../src/platforms/registry.ts';
import { startConnectApp } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { api, connectNumber, control, firstPhone, firstWaba, json, type WhatsAppApp } from './whatsapp-support.ts';

const META_PATH = '/api/v1/platform-webhooks/meta';
const metaSign = (body: string) => `sha256=${createHmac('sha256', sandboxApp('meta').clientSecret).update(body).digest('hex')}`;
const EVENTS = ['template.status', 'template.quality', 'account.quality'];

interface Delivered {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

for (const dialect of DIALECTS) {
  describe(`whatsapp account events [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: WhatsAppApp;
    let receiver: Receiver;
    let otherReceiver: Receiver;
    let key: string;
    let otherKey: string;
    let accountId: string;
    let otherAccountId: string;
    const secrets = new Map<Receiver, string>();

    before(async () => {
      t = await startConnectApp(dialect, { worker: true });
      t.sandbox.configureApp({ platform: 'facebook', clientId: sandboxApp('meta').clientId, clientSecret: sandboxApp('meta').clientSecret });
      receiver = await new Receiver().start();
      otherReceiver = await new Receiver().start();
      ({ key } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
      accountId = await connectNumber(t, key, { subscribe: true, externalId: 'wa-ext' });
      otherAccountId = await connectNumber(t, otherKey);
      for (const [k, r] of [[key, receiver], [otherKey, otherReceiver]] as const) {
        const hook = await api(t, k, 'POST', '/webhooks', { url: r.url, events: EVENTS });
        assert.equal(hook.status, 201, JSON.stringify(hook.body));
        secrets.set(r, (hook.body.webhook as { secret: string }).secret);
      }
    });
    after(async () => {
      await receiver.stop();
      await otherReceiver.stop();
      await t.close();
    });

    /** The signed deliveries a receiver got, checked and parsed. */
    const delivered = (r: Receiver): Delivered[] =>
      r.received.map((got) => {
        const timestamp = String(got.headers['x-socialapi-timestamp']);
        assert.equal(got.headers['x-socialapi-signature'], createHmac('sha256', secrets.get(r) ?? '').update(`${timestamp}.${got.body}`).digest('hex'));
        return JSON.parse(got.body) as Delivered;
      });
    const waitForEvent = (r: Receiver, match: (d: Delivered) => boolean, what: string) => waitFor(() => delivered(r).find(match), 8000, what);
    const settledInbound = () =>
      waitFor(async () => ((await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select('id').where('status', '=', 'pending').execute()).length === 0 ? true : null), 8000, 'the process jobs');
    const createTemplate = async (name: string): Promise<string> => {
      const res = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/templates`, { name, language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order is ready' }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return (res.body.template as { id: string }).id;
    };

    test('review outcomes arrive as template.status with the contract data, for each organization', async () => {
      const templateId = await createTemplate('order_ready');
      await control(t, 'whatsapp/templates/review', { templateId, status: 'APPROVED' });
      const got = await waitForEvent(receiver, (d) => d.event === 'template.status' && d.data.templateId === templateId, 'template.status');
      assert.equal(got.id, got.data.eventId);
      assert.deepEqual(got.data, {
        eventId: got.id,
        platform: 'whatsapp',
        accountId,
        externalId: 'wa-ext',
        wabaId: firstWaba(t).id,
        kind: 'status',
        templateId,
        name: 'order_ready',
        language: 'en_US',
        event: 'APPROVED',
        reason: 'NONE',
        otherInfo: null,
        receivedAt: got.data.receivedAt,
      });
      assert.ok(!Number.isNaN(Date.parse(String(got.data.receivedAt))));
      // The other organization's account of the same number hears of it on its own endpoint.
      const theirs = await waitForEvent(otherReceiver, (d) => d.event === 'template.status' && d.data.templateId === templateId, 'the other organization');
      assert.deepEqual([theirs.data.accountId, theirs.data.externalId], [otherAccountId, null]);
      assert.notEqual(theirs.id, got.id);

      const rejectedId = await createTemplate('order_late');
      await control(t, 'whatsapp/templates/review', { templateId: rejectedId, status: 'REJECTED', reason: 'PROMOTIONAL' });
      const rejected = await waitForEvent(receiver, (d) => d.event === 'template.status' && d.data.templateId === rejectedId, 'the rejection');
      assert.deepEqual([rejected.data.event, rejected.data.reason], ['REJECTED', 'PROMOTIONAL']);
      // In the organization's inbox events, as kind other; the other organization sees its own only.
      const listed = await api(t, key, 'GET', `/inbox/events?kind=other&accountId=${accountId}`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const events = listed.body.events as Array<{ id: string; kind: string; platform: string; accountId: string; data: Record<string, unknown> }>;
      const mine = events.find((e) => e.id === got.id);
      assert.deepEqual([mine?.kind, mine?.platform, mine?.accountId, mine?.data], ['other', 'whatsapp', accountId, got.data]);
      const theirList = (await api(t, otherKey, 'GET', '/inbox/events?kind=other')).body.events as Array<{ id: string; accountId: string }>;
      assert.ok(theirList.length > 0 && theirList.every((e) => e.accountId === otherAccountId));
    });

    test('template quality and category changes arrive as template.quality', async () => {
      const templateId = await createTemplate('weekly_offer');
      await control(t, 'whatsapp/templates/quality', { templateId, score: 'YELLOW' });
      const quality = await waitForEvent(receiver, (d) => d.event === 'template.quality' && d.data.kind === 'quality', 'template.quality (quality)');
      assert.deepEqual(quality.data, {
        eventId: quality.id,
        platform: 'whatsapp',
        accountId,
        externalId: 'wa-ext',
        wabaId: firstWaba(t).id,
        kind: 'quality',
        templateId,
        name: 'weekly_offer',
        language: 'en_US',
        event: null,
        previousQualityScore: 'UNKNOWN',
        newQualityScore: 'YELLOW',
        receivedAt: quality.data.receivedAt,
      });
      await control(t, 'whatsapp/templates/category', { templateId, category: 'MARKETING' });
      const category = await waitForEvent(receiver, (d) => d.event === 'template.quality' && d.data.kind === 'category', 'template.quality (category)');
      assert.deepEqual(
        { ...category.data, eventId: null, receivedAt: null },
        { eventId: null, platform: 'whatsapp', accountId, externalId: 'wa-ext', wabaId: firstWaba(t).id, kind: 'category', templateId, name: 'weekly_offer', language: 'en_US', event: null, previousCategory: 'UTILITY', newCategory: 'MARKETING', correctCategory: null, receivedAt: null },
      );
    });

    test("the number's quality and limit arrive as account.quality; the stored record is read again", async () => {
      assert.equal(((await api(t, key, 'GET', `/whatsapp/accounts/${accountId}/phone-number`)).body.phoneNumber as { messagingLimit: string }).messagingLimit, 'TIER_1K');
      await control(t, 'whatsapp/phone-numbers/quality', { phoneNumberId: firstPhone(t).id, event: 'DOWNGRADE', qualityRating: 'YELLOW', messagingLimitTier: 'TIER_250' });
      const got = await waitForEvent(receiver, (d) => d.event === 'account.quality', 'account.quality');
      assert.deepEqual(got.data, {
        eventId: got.id,
        platform: 'whatsapp',
        accountId,
        externalId: 'wa-ext',
        wabaId: firstWaba(t).id,
        displayPhoneNumber: firstPhone(t).digits,
        event: 'DOWNGRADE',
        currentLimit: 'TIER_250',
        oldLimit: 'TIER_1K',
        qualityRating: null,
        maxDailyConversations: null,
        receivedAt: got.data.receivedAt,
      });
      const record = (await api(t, key, 'GET', `/whatsapp/accounts/${accountId}/phone-number`)).body.phoneNumber as { messagingLimit: string; qualityRating: string };
      assert.deepEqual([record.messagingLimit, record.qualityRating], ['TIER_250', 'YELLOW']);
    });

    test('once per platform event: a retry in other bytes emits nothing; account_update is ignored with a note', async () => {
      await settledInbound();
      const stored = await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select(['body', 'note']).where('object', '=', 'whatsapp_business_account').execute();
      const statusBody = stored.find((s) => s.body.includes('message_template_status_update'));
      assert.ok(statusBody);
      assert.match(statusBody.note ?? '', /inbox event/);
      const before = receiver.received.length + otherReceiver.received.length;
      const retry = `${statusBody.body} `;
      const res = await fetch(`${t.url}${META_PATH}`, { method: 'POST', headers: { ...json, 'x-hub-signature-256': metaSign(retry) }, body: retry });
      assert.equal(res.status, 200);
      await settledInbound();
      const retried = await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select(['status', 'note']).where('body', '=', retry).executeTakeFirstOrThrow();
      assert.equal(retried.status, 'processed');
      assert.equal(retried.note, null);

      await control(t, 'whatsapp/account', { wabaId: firstWaba(t).id, restriction: 'restricted' });
      const update = await waitFor(
        async () => (await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select(['status', 'note', 'body']).where('object', '=', 'whatsapp_business_account').execute()).find((s) => s.body.includes('account_update') && s.status !== 'pending'),
        8000,
        'the account_update webhook',
      );
      assert.equal(update.status, 'processed');
      assert.match(update.note ?? '', /ignored: whatsapp_business_account\.account_update/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(receiver.received.length + otherReceiver.received.length, before);
    });
  });
}
