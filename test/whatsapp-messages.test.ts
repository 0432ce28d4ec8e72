// WhatsApp messages over HTTP against the sandbox's Cloud API, on both stores: sending text,
// media (a URL, our media uploaded first, a WhatsApp media id) and a template, each stored at once
// with message.sent; the 24-hour window (checked here first, nothing sent or stored: only
// templates outside it); a person writing → message.received and the conversation in the inbox
// routes; statuses → message.status and the stored status, a failed one with its reason; marking
// read with the typing indicator; approval (key, organization, account: every kind of message,
// through either route, refused before any platform call), isolation, 400s naming the field;
// the requests in the sandbox journal; events at a real receiver, signed.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sandboxApp } from '../src/platforms/registry.ts';
import { createKey } from '../src/modules/keys/service.ts';
import { startConnectApp } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { OffsetClock } from './messages-support.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addRedditAccount, api, callsSince, codeOf, connectNumber, control, firstPhone, mark, type WhatsAppApp } from './whatsapp-support.ts';

const HOUR = 3_600_000;
const EVENTS = ['message.received', 'message.sent', 'message.status', 'message.reaction'];

interface Delivered {
  id: string;
  event: string;
  data: Record<string, unknown>;
}
interface Message {
  id: string;
  conversationId: string;
  direction: string;
  platformMessageId: string;
  text: string | null;
  attachments: Array<{ type: string; url: string | null }>;
  status: string;
  reaction: string | null;
  error?: string;
}

for (const dialect of DIALECTS) {
  describe(`whatsapp messages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: WhatsAppApp & { clock: OffsetClock };
    let receiver: Receiver;
    let files: FileServer;
    let secret: string;
    let key: string;
    let org: string;
    let otherKey: string;
    let accountId: string;
    let path: string;
    let person = 15550100;
    const nextPerson = () => `1${++person}0`;

    before(async () => {
      const clock = new OffsetClock();
      t = Object.assign(await startConnectApp(dialect, { worker: true, clock }), { clock });
      t.sandbox.configureApp({ platform: 'facebook', clientId: sandboxApp('meta').clientId, clientSecret: sandboxApp('meta').clientSecret });
      t.sandbox.updateSettings({ whatsapp: { deliveredMs: 50, readMs: 100 } });
      receiver = await new Receiver().start();
      files = await fileServer({ '/photo.jpg': { body: samples.jpeg, type: 'image/jpeg' } });
      ({ key, organizationId: org } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
      accountId = await connectNumber(t, key, { subscribe: true, register: true, pin: '123456', externalId: 'wa-ext' });
      path = `/whatsapp/accounts/${accountId}/messages`;
      const hook = await api(t, key, 'POST', '/webhooks', { url: receiver.url, events: EVENTS });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      secret = (hook.body.webhook as { secret: string }).secret;
    });
    after(async () => {
      await receiver.stop();
      await files.close();
      await t.close();
    });

    const delivered = (): Delivered[] =>
      receiver.received.map((got) => {
        const timestamp = String(got.headers['x-socialapi-timestamp']);
        assert.equal(got.headers['x-socialapi-signature'], createHmac('sha256', secret).update(`${timestamp}.${got.body}`).digest('hex'));
        return JSON.parse(got.body) as Delivered;
      });
    const waitForEvent = (match: (d: Delivered) => boolean, what: string) => waitFor(() => delivered().find(match), 8000, what);
    /** A person writes to the number; the message.received it becomes. */
    const write = async (from: string, body: Record<string, unknown>): Promise<Delivered> => {
      const sent = await control(t, 'whatsapp/messages', { phoneNumberId: firstPhone(t).id, from, ...body });
      return waitForEvent((d) => d.event === 'message.received' && d.data.platformMessageId === sent.id, 'message.received');
    };
    const send = async (body: Record<string, unknown>): Promise<Message> => {
      const res = await api(t, key, 'POST', path, body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.message as Message;
    };
    const storedMessages = (conversationId: string) => t.runtime.deps.store.db.selectFrom('messages').selectAll().where('conversation_id', '=', conversationId).orderBy('sent_at').execute();

    test('a person writes: message.received, the conversation in the inbox routes, its window open', async () => {
      const from = nextPerson();
      const got = await write(from, { name: 'Dana', text: 'Do you have it in blue?' });
      assert.equal(got.data.platform, 'whatsapp');
      assert.equal(got.data.accountId, accountId);
      assert.equal(got.data.externalId, 'wa-ext');
      assert.equal(got.data.direction, 'inbound');
      assert.equal(got.data.text, 'Do you have it in blue?');
      assert.deepEqual(got.data.participant, { id: from, username: null, name: 'Dana' });
      assert.equal(typeof got.data.eventId, 'string');

      const list = await api(t, key, 'GET', '/inbox/conversations?platform=whatsapp');
      assert.equal(list.status, 200);
      const conversation = (list.body.conversations as Array<Record<string, unknown>>).find((c) => c.id === got.data.conversationId);
      assert.ok(conversation, 'the conversation is listed');
      assert.equal(conversation.platform, 'whatsapp');
      assert.equal(conversation.unread, 1);
      assert.equal((conversation.messagingWindow as { open: boolean; humanAgentExpiresAt: null }).open, true);
      assert.equal((conversation.messagingWindow as { humanAgentExpiresAt: null }).humanAgentExpiresAt, null);
      const messages = await api(t, key, 'GET', `/inbox/conversations/${String(got.data.conversationId)}/messages`);
      assert.deepEqual((messages.body.messages as Message[]).map((m) => [m.direction, m.text, m.id]), [['inbound', 'Do you have it in blue?', got.data.messageId]]);
      // Another organization sees nothing of it.
      assert.equal((await api(t, otherKey, 'GET', `/inbox/conversations/${String(got.data.conversationId)}`)).status, 404);
    });

    test('send text, media by URL, by our media and by WhatsApp media id: stored at once, message.sent, statuses after', async () => {
      const from = nextPerson();
      const inbound = await write(from, { text: 'hello' });
      const seq = mark(t);
      const text = await send({ to: `+${from}`, type: 'text', text: 'Yes, in blue.', replyTo: String(inbound.data.platformMessageId) });
      assert.deepEqual([text.direction, text.text, text.status, text.conversationId], ['outbound', 'Yes, in blue.', 'sent', inbound.data.conversationId]);
      const calls = callsSince(t, seq);
      assert.deepEqual(calls.map((c) => [c.method, c.path]), [['POST', `/v24.0/${firstPhone(t).id}/messages`]]);
      assert.deepEqual(calls[0]?.body, { messaging_product: 'whatsapp', recipient_type: 'individual', to: from, type: 'text', text: { body: 'Yes, in blue.', preview_url: false }, context: { message_id: inbound.data.platformMessageId } });
      const sentEvent = await waitForEvent((d) => d.event === 'message.sent' && d.data.messageId === text.id, 'message.sent');
      assert.equal(sentEvent.data.eventId, null);
      assert.equal(sentEvent.data.platformMessageId, text.platformMessageId);

      const image = await send({ recipient: from, type: 'image', url: `${files.url}/photo.jpg`, caption: 'blue' });
      assert.deepEqual([image.text, image.attachments], ['blue', [{ type: 'image', url: `${files.url}/photo.jpg` }]]);
      assert.deepEqual((callsSince(t, seq).at(-1)?.body as Record<string, unknown>).image, { link: `${files.url}/photo.jpg`, caption: 'blue' });

      const uploaded = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/media`, { url: `${files.url}/photo.jpg` });
      assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
      const waMedia = String(uploaded.body.whatsappMediaId);
      const byId = await send({ conversationId: String(inbound.data.conversationId), type: 'document', whatsappMediaId: waMedia, fileName: 'a.jpg' });
      assert.equal(byId.attachments[0]?.type, 'document');
      assert.deepEqual((callsSince(t, seq).at(-1)?.body as Record<string, unknown>).document, { id: waMedia, filename: 'a.jpg' });

      // Our media: uploaded to WhatsApp first, then sent by the id WhatsApp gave it.
      const ours = await api(t, key, 'POST', '/media', { base64: samples.jpeg.toString('base64') });
      assert.equal(ours.status, 201, JSON.stringify(ours.body));
      const before = mark(t);
      const fromOurs = await send({ to: from, type: 'image', mediaId: (ours.body.media as { id: string }).id });
      assert.equal(fromOurs.attachments[0]?.type, 'image');
      const made = callsSince(t, before);
      assert.deepEqual(made.map((c) => c.path), [`/v24.0/${firstPhone(t).id}/media`, `/v24.0/${firstPhone(t).id}/messages`]);
      assert.match(String(((made[1]?.body as Record<string, unknown>).image as { id: string }).id), /^\d+$/);

      // Statuses: delivered then read, the stored status following, message.status with the contract's shape.
      const read = await waitForEvent((d) => d.event === 'message.status' && d.data.platformMessageId === text.platformMessageId && d.data.status === 'read', 'the read status');
      assert.equal(read.data.messageId, text.id);
      assert.equal(read.data.conversationId, text.conversationId);
      assert.deepEqual(read.data.recipient, { phone: from, userId: null });
      assert.match(String(read.data.timestamp), /^\d{4}-/);
      const deliveredStatus = await waitForEvent((d) => d.event === 'message.status' && d.data.platformMessageId === text.platformMessageId && d.data.status === 'delivered', 'the delivered status');
      assert.equal((deliveredStatus.data.pricing as { category: string }).category, 'service');
      assert.equal(typeof (deliveredStatus.data.conversation as { id: string }).id, 'string');
      await waitFor(async () => (await storedMessages(text.conversationId)).find((m) => m.id === text.id)?.status === 'read', 8000, 'the stored read status');
      // Once per platform event: each status of the message arrived once.
      const statuses = delivered().filter((d) => d.event === 'message.status' && d.data.platformMessageId === text.platformMessageId).map((d) => d.data.status);
      assert.equal(new Set(statuses).size, statuses.length);
    });

    test('a failed status: the stored message is failed with its reason, message.status carries the errors', async () => {
      const from = nextPerson();
      await write(from, { text: 'hello' });
      await control(t, 'whatsapp/people', { waId: from, onWhatsApp: false });
      const message = await send({ to: from, type: 'text', text: 'are you there?' });
      const failed = await waitForEvent((d) => d.event === 'message.status' && d.data.platformMessageId === message.platformMessageId && d.data.status === 'failed', 'the failed status');
      assert.equal((failed.data.errors as Array<{ code: number }>)[0]?.code, 131026);
      const stored = await waitFor(async () => (await storedMessages(message.conversationId)).find((m) => m.id === message.id && m.status === 'failed'), 8000, 'the stored failure');
      assert.match(stored.error ?? '', /^131026: /);
      const page = await api(t, key, 'GET', `/inbox/conversations/${message.conversationId}/messages`);
      const shown = (page.body.messages as Message[]).find((m) => m.id === message.id);
      assert.equal(shown?.status, 'failed');
      assert.match(shown?.error ?? '', /^131026: /);
    });

    test('mark read with the typing indicator: the request, the stored messages read', async () => {
      const from = nextPerson();
      const inbound = await write(from, { text: 'anyone?' });
      const seq = mark(t);
      const res = await api(t, key, 'POST', `${path}/${String(inbound.data.messageId)}/read`, { typing: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((res.body.message as Message).status, 'read');
      assert.deepEqual(callsSince(t, seq)[0]?.body, { messaging_product: 'whatsapp', status: 'read', message_id: inbound.data.platformMessageId, typing_indicator: { type: 'text' } });
      const conversation = await api(t, key, 'GET', `/inbox/conversations/${String(inbound.data.conversationId)}`);
      assert.equal((conversation.body.conversation as { unread: number }).unread, 0);
      // By platform id, no body: no typing indicator.
      const again = await api(t, key, 'POST', `${path}/${String(inbound.data.platformMessageId)}/read`);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal((callsSince(t, seq).at(-1)?.body as Record<string, unknown>).typing_indicator, undefined);
      assert.equal((await api(t, key, 'POST', `${path}/msg_unknown/read`, {})).status, 404);
    });

    test('the inbox routes send to and mark read a WhatsApp conversation', async () => {
      const from = nextPerson();
      const inbound = await write(from, { text: 'first' });
      const latest = await write(from, { text: 'second' });
      const conversationId = String(inbound.data.conversationId);
      const seq = mark(t);
      const res = await api(t, key, 'POST', `/inbox/conversations/${conversationId}/messages`, { text: 'Hello from the inbox', replyTo: String(latest.data.platformMessageId) });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual([(res.body.message as Message).text, (res.body.message as Message).conversationId], ['Hello from the inbox', conversationId]);
      const body = callsSince(t, seq)[0]?.body as Record<string, unknown>;
      assert.deepEqual([body.to, body.type, body.text, body.context], [from, 'text', { body: 'Hello from the inbox', preview_url: false }, { message_id: latest.data.platformMessageId }]);
      const reacted = await api(t, key, 'POST', `/inbox/conversations/${conversationId}/messages`, { reaction: { messageId: String(latest.data.platformMessageId), emoji: '👍' } });
      assert.equal(reacted.status, 201, JSON.stringify(reacted.body));
      assert.equal((reacted.body.message as Message).reaction, '👍');
      const tagged = await api(t, key, 'POST', `/inbox/conversations/${conversationId}/messages`, { text: 'x', tag: 'HUMAN_AGENT' });
      assert.deepEqual(codeOf(tagged), [400, null]);
      assert.match(tagged.body.error?.message ?? '', /^tag:/);

      const before = mark(t);
      const read = await api(t, key, 'POST', `/inbox/conversations/${conversationId}/read`);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.equal((read.body.conversation as { unread: number }).unread, 0);
      assert.deepEqual(callsSince(t, before)[0]?.body, { messaging_product: 'whatsapp', status: 'read', message_id: latest.data.platformMessageId });
      // Sync has nothing to read on the Cloud API.
      assert.deepEqual(codeOf(await api(t, key, 'POST', '/inbox/conversations/sync', { accountId })), [400, 'not_supported']);
    });

    test('bad input is a 400 naming the field, before any platform call', async () => {
      const seq = mark(t);
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ type: 'text', text: 'x' }, /^to: required/],
        [{ to: 'abc', type: 'text', text: 'x' }, /^to:/],
        [{ to: '15550001111', recipient: '15550001111', type: 'text', text: 'x' }, /^recipient:/],
        [{ to: '15550001111', type: 'fax' }, /type/],
        [{ to: '15550001111', type: 'text' }, /^text: required/],
        [{ to: '15550001111', type: 'text', text: 'x', caption: 'y' }, /^caption: not used by type text/],
        [{ to: '15550001111', type: 'image' }, /^url: required/],
        [{ to: '15550001111', type: 'image', url: 'ftp://x/y.jpg' }, /^url:/],
        [{ to: '15550001111', type: 'image', url: 'https://x/y.jpg', mediaId: 'm' }, /^mediaId:/],
        [{ to: '15550001111', type: 'template' }, /^template: required/],
        [{ to: '15550001111', type: 'reaction' }, /^reaction: required/],
        [{ to: '15550001111', type: 'text', text: 'x'.repeat(4097) }, /text/],
      ];
      for (const [input, message] of cases) {
        const res = await api(t, key, 'POST', path, input);
        assert.equal(res.status, 400, JSON.stringify([input, res.body]));
        assert.match(res.body.error?.message ?? '', message, JSON.stringify(input));
      }
      assert.equal(callsSince(t, seq).length, 0);
    });

    test('isolation, other platforms, approval', async () => {
      assert.deepEqual(codeOf(await api(t, otherKey, 'POST', path, { to: '15550001111', type: 'text', text: 'x' })), [404, null]);
      const from = nextPerson();
      const inbound = await write(from, { text: 'hi' });
      const { key: otherOrgKey } = await t.tenant();
      const otherAccount = await connectNumber(t, otherOrgKey);
      // Another account's conversation is unknown to this one.
      assert.deepEqual(codeOf(await api(t, otherOrgKey, 'POST', `/whatsapp/accounts/${otherAccount}/messages`, { conversationId: String(inbound.data.conversationId), type: 'text', text: 'x' })), [404, null]);
      const reddit = await addRedditAccount(t, org);
      assert.deepEqual(codeOf(await api(t, key, 'POST', `/whatsapp/accounts/${reddit}/messages`, { to: from, type: 'text', text: 'x' })), [400, 'not_supported']);
      // Approval (the key, the organization or the account) refuses every kind of message before
      // any platform call, templates and media included; nothing is stored.
      const { store, clock } = t.runtime.deps;
      const conversation = String(inbound.data.conversationId);
      const stored = (await storedMessages(conversation)).length;
      const sends = [
        { to: from, type: 'text', text: 'x' },
        { conversationId: conversation, type: 'image', url: 'https://cdn.example/a.jpg' },
        { to: nextPerson(), type: 'template', template: { name: 'hello_world', language: 'en_US' } },
      ];
      const refusedAll = async (apiKey: string, messagePath: string, who: string) => {
        const seq = mark(t);
        for (const body of sends) {
          const res = await api(t, apiKey, 'POST', messagePath, body);
          assert.deepEqual(codeOf(res), [403, 'approval_required'], JSON.stringify([body, res.body]));
          assert.equal(res.body.error?.message, `Approval applies to this ${who}: sending direct messages is refused`);
        }
        assert.deepEqual(callsSince(t, seq), [], 'no platform call');
      };
      const { key: approvalKey } = await createKey(store.db, clock, org, { approvalRequired: true });
      await refusedAll(approvalKey, path, 'API key or organization');
      const inboxSeq = mark(t);
      assert.deepEqual(codeOf(await api(t, approvalKey, 'POST', `/inbox/conversations/${conversation}/messages`, { text: 'x' })), [403, 'approval_required']);
      assert.deepEqual(callsSince(t, inboxSeq), []);
      await store.db.updateTable('accounts').set({ approval_required: 1 }).where('id', '=', accountId).execute();
      try {
        await refusedAll(key, path, 'account');
      } finally {
        await store.db.updateTable('accounts').set({ approval_required: 0 }).where('id', '=', accountId).execute();
      }
      assert.equal((await storedMessages(conversation)).length, stored);
      // The other organization requires approval: a key made after that carries it.
      const otherOrg = await store.db.selectFrom('accounts').select('organization_id').where('id', '=', otherAccount).executeTakeFirstOrThrow();
      await store.db.updateTable('organizations').set({ approval_required: 1 }).where('id', '=', otherOrg.organization_id).execute();
      const { key: orgKey } = await createKey(store.db, clock, otherOrg.organization_id, {});
      const seq = mark(t);
      const res = await api(t, orgKey, 'POST', `/whatsapp/accounts/${otherAccount}/messages`, { to: from, type: 'template', template: { name: 'hello_world', language: 'en_US' } });
      assert.deepEqual(codeOf(res), [403, 'approval_required']);
      assert.deepEqual(callsSince(t, seq), []);
      // Reads stay allowed.
      assert.equal((await api(t, approvalKey, 'GET', `/inbox/conversations/${conversation}/messages`)).status, 200);
    });

    test('the window: outside it only templates (409 outside_messaging_window, nothing sent or stored)', async () => {
      const stranger = nextPerson();
      const seq = mark(t);
      const refused = await api(t, key, 'POST', path, { to: stranger, type: 'text', text: 'hi' });
      assert.deepEqual(codeOf(refused), [409, 'outside_messaging_window']);

      const from = nextPerson();
      const inbound = await write(from, { text: 'hello' });
      // Our clock moves on (the sandbox's stays, so the token stays valid): refused here first.
      t.clock.offset += 25 * HOUR;
      const late = await api(t, key, 'POST', path, { to: from, type: 'image', url: 'https://cdn.example/a.jpg' });
      assert.deepEqual(codeOf(late), [409, 'outside_messaging_window']);
      assert.equal(callsSince(t, seq).filter((c) => c.path.endsWith('/messages')).length, 0);
      assert.equal((await storedMessages(String(inbound.data.conversationId))).length, 1);

      // A template goes out (approved first), to the person and to someone who never wrote.
      const created = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/templates`, { name: 'order_ready', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order is ready' }] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await control(t, 'whatsapp/templates/review', { templateId: (created.body.template as { id: string }).id, status: 'APPROVED' });
      const template = await send({ to: from, type: 'template', template: { name: 'order_ready', language: 'en_US' } });
      assert.equal(template.status, 'sent');
      const body = callsSince(t, seq).at(-1)?.body as Record<string, unknown>;
      // (The journal masks every `code` field, the language's too.)
      assert.deepEqual(Object.keys(body.template as object), ['name', 'language']);
      assert.equal((body.template as { name: string }).name, 'order_ready');
      // A refusal by WhatsApp leaves no conversation behind for a person never written to.
      await control(t, 'whatsapp/faults', { code: 131030 });
      const notAllowed = await api(t, key, 'POST', path, { to: stranger, type: 'template', template: { name: 'order_ready', language: 'en_US' } });
      assert.deepEqual(codeOf(notAllowed), [403, 'recipient_not_allowed']);
      assert.equal((await t.runtime.deps.store.db.selectFrom('conversations').select('id').where('participant_id', '=', stranger).execute()).length, 0);
      const first = await send({ to: stranger, type: 'template', template: { name: 'order_ready', language: 'en_US' } });
      const listed = await api(t, key, 'GET', `/inbox/conversations/${first.conversationId}`);
      assert.equal(listed.status, 200);
      assert.equal((listed.body.conversation as { participant: { id: string } }).participant.id, stranger);
    });
  });
}
