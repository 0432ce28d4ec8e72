// Inbound direct messages end to end, on both stores, for a facebook Page (Messenger) and an
// instagram account of each login: a sandbox person writes, reads, reacts and presses a button;
// the sandbox sends Meta's signed messaging webhooks; the platform_event.process job stores the
// conversation and its messages and the contract's message.* events reach a real receiver,
// signed, with exactly the message shape. A message sent through the service emits message.sent
// with eventId null and its echo adds nothing; a message written in the platform's own app
// arrives as an echo and is stored as outbound with message.sent. A Meta retry emits once; a
// messaging row left unhandled before this handler existed is processed at the worker start.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildJobRegistry, queueStandingJobs } from '../src/composition.ts';
import { createLogger } from '../src/http/logging.ts';
import { newId } from '../src/lib/ids.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import type { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import {
  addDmAccount, api, control, journalMark, messageReceiver, platformCalls, postMeta, settledInbound, startMessagesApp, subscribe,
  type Delivered, type DmAccount, type Kind, type MessagesApp,
} from './messages-support.ts';

interface Conversation {
  id: string;
  platform: string;
  accountId: string;
  participant: { id: string; username: string | null; name: string | null };
  status: string;
  unread: number;
  lastMessageAt: string;
  lastMessageText: string | null;
  messagingWindow: { open: boolean; expiresAt: string | null; humanAgentExpiresAt: string | null };
}
interface Message {
  id: string;
  conversationId: string;
  direction: string;
  platformMessageId: string | null;
  text: string | null;
  attachments: Array<{ type: string; url: string | null }>;
  status: string;
  reaction: string | null;
  postback: Record<string, unknown> | null;
  sentAt: string;
}

const KINDS: Kind[] = ['facebook', 'instagram-facebook', 'instagram-instagram'];

for (const dialect of DIALECTS) {
  describe(`inbound direct messages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: MessagesApp;
    let key: string;
    let org: string;
    let receiver: Receiver;
    let delivered: () => Delivered[];
    const accounts = new Map<Kind, DmAccount>();

    before(async () => {
      t = await startMessagesApp(dialect);
      ({ key, organizationId: org } = await t.tenant());
      ({ receiver, delivered } = await messageReceiver(t, key));
      for (const kind of KINDS) {
        const account = await addDmAccount(t, org, kind);
        await subscribe(t, key, account);
        accounts.set(kind, account);
      }
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    const account = (kind: Kind): DmAccount => {
      const found = accounts.get(kind);
      if (!found) throw new Error(`no ${kind} account`);
      return found;
    };
    const eventOf = (event: string, match: (d: Delivered) => boolean) => waitFor(() => delivered().find((d) => d.event === event && match(d)), 10_000, `${event}`);
    const conversationOf = async (accountId: string, participantId: string): Promise<Conversation> => {
      const listed = await api<{ conversations: Conversation[] }>(t, key, 'GET', `/inbox/conversations?accountId=${accountId}&limit=100`);
      assert.equal(listed.status, 200);
      const found = listed.body.conversations.find((c) => c.participant.id === participantId);
      assert.ok(found, 'the conversation is listed');
      return found;
    };
    /** A conversation with `participant` holding a message the service sent, for every organization's account of the Page (another test connects a second one). */
    const storeOurMessage = async (a: DmAccount, participant: string, mid: string, now: number) => {
      const { db } = t.runtime.deps.store;
      for (const other of await db.selectFrom('accounts').select(['id', 'organization_id']).where('platform', '=', 'facebook').where('platform_user_id', '=', a.platformUserId).execute()) {
        const conversationId = newId('conversation');
        await db
          .insertInto('conversations')
          .values({ id: conversationId, organization_id: other.organization_id, account_id: other.id, platform: 'facebook', platform_conversation_id: null, participant_id: participant, participant_username: null, participant_name: null, status: 'active', unread: 0, last_message_at: now, last_message_text: null, last_inbound_at: now, sending_until: null, created_at: now, updated_at: now })
          .execute();
        await db
          .insertInto('messages')
          .values({ id: newId('message'), organization_id: other.organization_id, account_id: other.id, conversation_id: conversationId, direction: 'outbound', platform_message_id: mid, text: 'ours', attachments: '[]', status: 'sent', sent_at: now, reaction: null, postback: null, created_at: now })
          .execute();
      }
    };
    const messagesOf = async (conversationId: string): Promise<Message[]> => {
      const res = await api<{ messages: Message[] }>(t, key, 'GET', `/inbox/conversations/${conversationId}/messages`);
      assert.equal(res.status, 200);
      return res.body.messages;
    };

    for (const kind of KINDS) {
      const platform = kind === 'facebook' ? 'facebook' : 'instagram';
      test(`${kind}: a person writes, is answered, reads, reacts and presses a button; an answer from the platform's app arrives as an echo`, async () => {
        const a = account(kind);
        const from = platform === 'facebook' ? { name: `Dana ${kind}` } : { username: `dana.${kind}`, name: `Dana ${kind}` };
        const written = await control(t, 'messages', { accountId: a.platformUserId, text: 'Do you deliver?', from });
        const mid = String(written.mid);
        const personId = String(written.senderId);

        // message.received, with the person's profile.
        const received = await eventOf('message.received', (d) => d.data.platformMessageId === mid);
        const conversation = await conversationOf(a.id, personId);
        const [inbound] = await messagesOf(conversation.id);
        assert.ok(inbound);
        const participant = { id: personId, username: platform === 'instagram' ? `dana.${kind}` : null, name: `Dana ${kind}` };
        assert.equal(received.id, received.data.eventId);
        assert.deepEqual(received.data, {
          eventId: received.data.eventId,
          platform,
          accountId: a.id,
          externalId: `ext-${kind}`,
          conversationId: conversation.id,
          messageId: inbound.id,
          platformMessageId: mid,
          platformMessageIds: [mid],
          direction: 'inbound',
          participant,
          text: 'Do you deliver?',
          attachments: [],
          postback: null,
          reaction: null,
          watermark: null,
          sentAt: inbound.sentAt,
          receivedAt: received.data.receivedAt,
        });
        assert.deepEqual({ ...conversation, lastMessageAt: undefined, messagingWindow: undefined }, {
          id: conversation.id, platform, accountId: a.id, participant, status: 'active', unread: 1, lastMessageAt: undefined, lastMessageText: 'Do you deliver?', messagingWindow: undefined,
        });
        assert.equal(conversation.messagingWindow.open, true);
        assert.equal(Date.parse(conversation.messagingWindow.expiresAt ?? ''), Date.parse(inbound.sentAt) + 86_400_000);
        assert.equal(Date.parse(conversation.messagingWindow.humanAgentExpiresAt ?? ''), Date.parse(inbound.sentAt) + 7 * 86_400_000);
        assert.deepEqual({ ...inbound, id: undefined, sentAt: undefined }, { id: undefined, conversationId: conversation.id, direction: 'inbound', platformMessageId: mid, text: 'Do you deliver?', attachments: [], status: 'delivered', reaction: null, postback: null, sentAt: undefined });

        // An answer through the service: message.sent with eventId null, once (its echo adds nothing).
        const seq = journalMark(t);
        const sent = await api<{ message: Message }>(t, key, 'POST', `/inbox/conversations/${conversation.id}/messages`, { text: 'Yes, within 5 km' });
        assert.equal(sent.status, 201, JSON.stringify(sent.body));
        const calls = platformCalls(t, seq);
        assert.equal(calls.length, 1);
        const inboxId = kind === 'instagram-instagram' ? a.platformUserId : a.pageId;
        assert.equal(calls[0]?.method, 'POST');
        assert.match(calls[0]?.path ?? '', new RegExp(`/${inboxId}/messages$`));
        assert.equal(calls[0]?.host, kind === 'instagram-instagram' ? 'graph.instagram.com' : 'graph.facebook.com');
        assert.deepEqual(calls[0]?.body, { recipient: { id: personId }, messaging_type: 'RESPONSE', message: { text: 'Yes, within 5 km' } });
        const outbound = sent.body.message;
        const sentEvent = await eventOf('message.sent', (d) => d.data.messageId === outbound.id);
        assert.deepEqual(sentEvent.data, {
          eventId: null, platform, accountId: a.id, externalId: `ext-${kind}`, conversationId: conversation.id, messageId: outbound.id,
          platformMessageId: outbound.platformMessageId, platformMessageIds: [outbound.platformMessageId], direction: 'outbound', participant,
          text: 'Yes, within 5 km', attachments: [], postback: null, reaction: null, watermark: null, sentAt: outbound.sentAt, receivedAt: sentEvent.data.receivedAt,
        });
        if (platform === 'facebook') {
          // Messenger also says it was delivered.
          const deliveredEvent = await eventOf('message.delivered', (d) => d.data.platformMessageIds.includes(outbound.platformMessageId ?? ''));
          assert.equal(deliveredEvent.data.messageId, outbound.id);
          assert.equal(deliveredEvent.data.direction, 'outbound');
          assert.equal(typeof deliveredEvent.data.watermark, 'number');
        }
        await settledInbound(t);
        assert.equal(delivered().filter((d) => d.event === 'message.sent' && d.data.platformMessageId === outbound.platformMessageId).length, 1);
        // Its echo (and Messenger's delivery receipt) came while the send was in flight or just
        // after: either way recorded on arrival, with no job, and the answer is delivered.
        const { db } = t.runtime.deps.store;
        const aboutIt = await db.selectFrom('platform_webhook_events').select(['status', 'note']).where('body', 'like', `%${outbound.platformMessageId}%`).orderBy('received_at').execute();
        assert.deepEqual(aboutIt.map((r) => r.status), platform === 'facebook' ? ['processed', 'processed'] : ['processed']);
        assert.ok(aboutIt.some((r) => r.note === 'echoes of messages sent through the service: nothing to record'), JSON.stringify(aboutIt));
        if (platform === 'facebook') assert.ok(aboutIt.some((r) => r.note === 'recorded on arrival: 1 inbox event'), JSON.stringify(aboutIt));
        assert.equal((await messagesOf(conversation.id)).find((m) => m.id === outbound.id)?.status, platform === 'facebook' ? 'delivered' : 'sent');
        assert.equal((await messagesOf(conversation.id)).length, 2);

        // The person reads: message.read, the answer is read.
        const read = await control(t, 'reads', { accountId: a.platformUserId, from: { id: personId } });
        const readEvent = await eventOf('message.read', (d) => d.data.conversationId === conversation.id);
        if (platform === 'facebook') assert.equal(readEvent.data.watermark, read.watermark);
        else assert.equal(readEvent.data.platformMessageId, read.mid);
        assert.equal(readEvent.data.direction, 'outbound');
        await waitFor(async () => ((await messagesOf(conversation.id)).find((m) => m.id === outbound.id)?.status === 'read' ? true : null), 5000, 'read status');

        // The person reacts to the answer, then takes the reaction back.
        await control(t, 'reactions', { mid: outbound.platformMessageId, reaction: 'love' });
        const reacted = await eventOf('message.reaction', (d) => d.data.messageId === outbound.id && d.data.reaction?.action === 'react');
        assert.deepEqual(reacted.data.reaction, { action: 'react', emoji: '❤' });
        assert.equal((await messagesOf(conversation.id)).find((m) => m.id === outbound.id)?.reaction, '❤');
        await control(t, 'reactions', { mid: outbound.platformMessageId, action: 'unreact' });
        const unreacted = await eventOf('message.reaction', (d) => d.data.messageId === outbound.id && d.data.reaction?.action === 'unreact');
        assert.deepEqual(unreacted.data.reaction, { action: 'unreact', emoji: null });
        await waitFor(async () => ((await messagesOf(conversation.id)).find((m) => m.id === outbound.id)?.reaction === null ? true : null), 5000, 'reaction removed');

        // A button: message.received with the postback.
        await control(t, 'postbacks', { accountId: a.platformUserId, from: { id: personId }, title: 'Opening hours', payload: 'HOURS' });
        const pressed = await eventOf('message.received', (d) => d.data.conversationId === conversation.id && d.data.postback !== null);
        assert.deepEqual(pressed.data.postback, { title: 'Opening hours', payload: 'HOURS' });
        assert.equal(pressed.data.text, 'Opening hours');

        // Someone answers in the platform's own app: stored as outbound, message.sent with its eventId.
        const inApp = await control(t, 'app-messages', { accountId: a.platformUserId, to: { id: personId }, text: 'See you soon' });
        const echoed = await eventOf('message.sent', (d) => d.data.platformMessageId === inApp.mid);
        assert.ok(echoed.data.eventId);
        assert.equal(echoed.id, echoed.data.eventId);
        assert.equal(echoed.data.direction, 'outbound');
        assert.equal(echoed.data.text, 'See you soon');
        const history = await messagesOf(conversation.id);
        assert.deepEqual(history.map((m) => [m.direction, m.text]), [['inbound', 'Do you deliver?'], ['outbound', 'Yes, within 5 km'], ['inbound', 'Opening hours'], ['outbound', 'See you soon']]);
        const after = await api<{ conversation: Conversation }>(t, key, 'GET', `/inbox/conversations/${conversation.id}`);
        assert.equal(after.body.conversation.lastMessageText, 'See you soon');
        assert.equal(after.body.conversation.unread, 2);
      });
    }

    test('a Meta retry of a message, byte for byte or re-batched, records and emits once', async () => {
      const a = account('facebook');
      const item = { sender: { id: 'psid-retry-1' }, recipient: { id: a.platformUserId }, timestamp: t.clock.now(), message: { mid: 'm_retry_1', text: 'hello?' } };
      const first = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: 1, messaging: [item] }] });
      const rebatched = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: 2, messaging: [item] }] });
      const results = await Promise.all([postMeta(t, first), postMeta(t, first), postMeta(t, rebatched)]);
      assert.deepEqual(results.map((r) => r.status), [200, 200, 200]);
      await eventOf('message.received', (d) => d.data.platformMessageId === 'm_retry_1');
      await settledInbound(t);
      const rows = await t.runtime.deps.store.db.selectFrom('platform_webhook_events').select(['status', 'body']).execute();
      assert.deepEqual(rows.filter((r) => r.body.includes('m_retry_1')).map((r) => r.status), ['processed', 'processed']);
      assert.equal(delivered().filter((d) => d.data.platformMessageId === 'm_retry_1').length, 1);
      const stored = await t.runtime.deps.store.db.selectFrom('messages').select('id').where('platform_message_id', '=', 'm_retry_1').execute();
      assert.equal(stored.length, 1);
      // The person's profile could not be read (no such PSID in the sandbox): the message is kept without it.
      const conversation = await conversationOf(a.id, 'psid-retry-1');
      assert.deepEqual(conversation.participant, { id: 'psid-retry-1', username: null, name: null });
    });

    test('a photo from a person arrives with its attachment', async () => {
      const a = account('instagram-instagram');
      const url = 'https://cdn.example/photo.jpg';
      const written = await control(t, 'messages', { accountId: a.platformUserId, attachments: [{ type: 'image', payload: { url } }], from: { username: 'photo.person' } });
      const got = await eventOf('message.received', (d) => d.data.platformMessageId === written.mid);
      assert.deepEqual(got.data.attachments, [{ type: 'image', url }]);
      assert.equal(got.data.text, null);
      const stored = await api<{ messages: Message[] }>(t, key, 'GET', `/inbox/conversations/${got.data.conversationId}/messages`);
      assert.deepEqual(stored.body.messages.map((m) => [m.text, m.attachments]), [[null, [{ type: 'image', url }]]]);
    });

    test('two organizations with the same Page each get their own conversation and event', async () => {
      const a = account('facebook');
      const other = await t.tenant();
      const theirs = await messageReceiver(t, other.key);
      try {
        const { sealer, store, clock } = t.runtime.deps;
        const row = await store.db.selectFrom('accounts').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
        const theirAccount = newId('account');
        await store.db.insertInto('accounts').values({ ...row, id: theirAccount, organization_id: other.organizationId, external_id: null, access_token_enc: sealer.seal(a.token), connected_at: clock.now() }).execute();
        const written = await control(t, 'messages', { accountId: a.platformUserId, text: 'Two of you?', from: { name: 'Shared Person' } });
        const ours = await eventOf('message.received', (d) => d.data.platformMessageId === written.mid);
        const got = await waitFor(() => theirs.delivered().find((d) => d.data.platformMessageId === written.mid), 10_000, 'their message.received');
        assert.equal(ours.data.accountId, a.id);
        assert.equal(got.data.accountId, theirAccount);
        assert.notEqual(got.data.conversationId, ours.data.conversationId);
        assert.notEqual(got.data.eventId, ours.data.eventId);
        assert.deepEqual(got.data.participant, ours.data.participant);
        // Each organization sees its own conversation only.
        const listed = await api<{ conversations: Array<{ id: string }> }>(t, other.key, 'GET', '/inbox/conversations');
        assert.deepEqual(listed.body.conversations.map((c) => c.id), [got.data.conversationId]);
        assert.equal((await api(t, other.key, 'GET', `/inbox/conversations/${ours.data.conversationId}`)).status, 404);
      } finally {
        await theirs.receiver.stop();
      }
    });

    /** A facebook conversation with a send in flight until `sendingUntil`. */
    const sendingConversation = async (a: DmAccount, participantId: string, sendingUntil: number): Promise<string> => {
      const now = t.clock.now();
      const id = newId('conversation');
      await t.runtime.deps.store.db
        .insertInto('conversations')
        .values({ id, organization_id: org, account_id: a.id, platform: 'facebook', platform_conversation_id: null, participant_id: participantId, participant_username: null, participant_name: null, status: 'active', unread: 0, last_message_at: now, last_message_text: null, last_inbound_at: now, sending_until: sendingUntil, created_at: now, updated_at: now })
        .execute();
      return id;
    };

    test("an echo that arrives while the service's send is in flight waits for it, then adds nothing", async () => {
      const a = account('facebook');
      const { db } = t.runtime.deps.store;
      const now = t.clock.now();
      // As the send route leaves it just before its platform call.
      const conversationId = await sendingConversation(a, 'psid-race', now + 60_000);
      const echo = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: a.platformUserId }, recipient: { id: 'psid-race' }, timestamp: now, message: { mid: 'm_race_ours', is_echo: true, app_id: 1, text: 'ours' } }] }] });
      assert.equal((await postMeta(t, echo)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const waiting = await db.selectFrom('platform_webhook_events').select('status').where('body', '=', echo).executeTakeFirstOrThrow();
      assert.equal(waiting.status, 'pending');
      // The send stores its message (and message.sent, not part of this test) and clears the mark.
      const stored = { id: newId('message'), organization_id: org, account_id: a.id, conversation_id: conversationId, direction: 'outbound' as const, platform_message_id: 'm_race_ours', text: 'ours', attachments: '[]', status: 'sent' as const, sent_at: now, reaction: null, postback: null, created_at: now };
      await db.insertInto('messages').values(stored).execute();
      await db.updateTable('conversations').set({ sending_until: null }).where('id', '=', conversationId).execute();
      await waitFor(async () => ((await db.selectFrom('platform_webhook_events').select('status').where('body', '=', echo).executeTakeFirstOrThrow()).status === 'processed' ? true : null), 10_000, 'the echo processed');
      assert.equal(delivered().filter((d) => d.data.platformMessageId === 'm_race_ours' && d.data.accountId === a.id).length, 0);
      assert.equal((await db.selectFrom('messages').select('id').where('account_id', '=', a.id).where('platform_message_id', '=', 'm_race_ours').execute()).length, 1);
    });

    test("a delivery receipt that arrives while another node's send is in flight waits for that send's message, then marks it delivered", async () => {
      const a = account('facebook');
      const { db } = t.runtime.deps.store;
      const now = t.clock.now();
      // The send is another node's: nothing in this one's registry of sends in flight.
      const conversationId = await sendingConversation(a, 'psid-receipt-race', now + 60_000);
      const receipt = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: 'psid-receipt-race' }, recipient: { id: a.platformUserId }, timestamp: now + 1, delivery: { mids: ['m_receipt_race'], watermark: now + 1 } }] }] });
      assert.equal((await postMeta(t, receipt)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const waiting = await db.selectFrom('platform_webhook_events').select('status').where('body', '=', receipt).executeTakeFirstOrThrow();
      assert.equal(waiting.status, 'pending');
      assert.equal(delivered().filter((d) => d.event === 'message.delivered' && d.data.platformMessageIds.includes('m_receipt_race')).length, 0);
      // The send stores its message and clears the mark; the receipt's next run finds it.
      const stored = { id: newId('message'), organization_id: org, account_id: a.id, conversation_id: conversationId, direction: 'outbound' as const, platform_message_id: 'm_receipt_race', text: 'ours', attachments: '[]', status: 'sent' as const, sent_at: now, reaction: null, postback: null, created_at: now };
      await db.insertInto('messages').values(stored).execute();
      await db.updateTable('conversations').set({ sending_until: null }).where('id', '=', conversationId).execute();
      const got = await eventOf('message.delivered', (d) => d.data.platformMessageIds.includes('m_receipt_race'));
      assert.equal(got.data.messageId, stored.id);
      const row = await db.selectFrom('messages').select('status').where('id', '=', stored.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'delivered');
    });

    test('the echo of a message the service stored is recorded as handled when it arrives, with no job queued', async () => {
      const a = account('facebook');
      const { db } = t.runtime.deps.store;
      const now = t.clock.now();
      await storeOurMessage(a, 'psid-known', 'm_known_ours', now);
      const echo = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: a.platformUserId }, recipient: { id: 'psid-known' }, timestamp: now, message: { mid: 'm_known_ours', is_echo: true, app_id: 1, text: 'ours' } }] }] });
      assert.equal((await postMeta(t, echo)).status, 200);
      const row = await db.selectFrom('platform_webhook_events').select(['id', 'status', 'note']).where('body', '=', echo).executeTakeFirstOrThrow();
      assert.equal(row.status, 'processed');
      assert.match(row.note ?? '', /echoes of messages sent through the service/);
      assert.equal((await db.selectFrom('jobs').select('id').where('payload', 'like', `%${row.id}%`).execute()).length, 0, 'no job for it');
      // An echo of a message the service does not know still goes through the job (and is recorded).
      const other = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: a.platformUserId }, recipient: { id: 'psid-known' }, timestamp: now + 1, message: { mid: 'm_known_app', is_echo: true, app_id: 2, text: 'from the app' } }] }] });
      assert.equal((await postMeta(t, other)).status, 200);
      await waitFor(async () => ((await db.selectFrom('messages').select('id').where('account_id', '=', a.id).where('platform_message_id', '=', 'm_known_app').executeTakeFirst()) ? true : null), 10_000, 'the app echo recorded');
    });

    test('a delivery receipt and a message of a stored conversation are recorded on arrival, with no job queued; one from a new person goes through the job', async () => {
      const a = account('facebook');
      const { db } = t.runtime.deps.store;
      const now = t.clock.now();
      await storeOurMessage(a, 'psid-receipt', 'm_receipt_ours', now);
      const receipt = (person: string, mid: string) => JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: person }, recipient: { id: a.platformUserId }, timestamp: now + 1, delivery: { mids: [mid], watermark: now + 1 } }] }] });
      const known = receipt('psid-receipt', 'm_receipt_ours');
      assert.equal((await postMeta(t, known)).status, 200);
      // Recorded by the time the webhook is answered: no worker step in between.
      const row = await db.selectFrom('platform_webhook_events').select(['id', 'status', 'note']).where('body', '=', known).executeTakeFirstOrThrow();
      assert.equal(row.status, 'processed');
      assert.match(row.note ?? '', /inbox event/);
      assert.equal((await db.selectFrom('jobs').select('id').where('payload', 'like', `%${row.id}%`).execute()).length, 0, 'no job for it');
      const ours = await db.selectFrom('messages').select('status').where('account_id', '=', a.id).where('platform_message_id', '=', 'm_receipt_ours').executeTakeFirstOrThrow();
      assert.equal(ours.status, 'delivered');
      await eventOf('message.delivered', (d) => d.data.platformMessageIds.includes('m_receipt_ours'));
      // The same body again (a Meta retry) records nothing more.
      assert.equal((await postMeta(t, known)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(delivered().filter((d) => d.event === 'message.delivered' && d.data.platformMessageIds.includes('m_receipt_ours')).length, 1, 'one message.delivered');
      // So is a message from that person: stored, with its event, by the time the webhook is answered.
      const message = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: 'psid-receipt' }, recipient: { id: a.platformUserId }, timestamp: now + 2, message: { mid: 'm_receipt_again', text: 'Thanks!' } }] }] });
      assert.equal((await postMeta(t, message)).status, 200);
      const messageRow = await db.selectFrom('platform_webhook_events').select(['status', 'note']).where('body', '=', message).executeTakeFirstOrThrow();
      assert.equal(messageRow.status, 'processed');
      // One inbox event per organization connected to the Page (another test connected a second one).
      assert.match(messageRow.note ?? '', /^recorded on arrival: \d inbox events?$/);
      const again = await db.selectFrom('messages').select(['direction', 'text']).where('account_id', '=', a.id).where('platform_message_id', '=', 'm_receipt_again').executeTakeFirstOrThrow();
      assert.equal(again.direction, 'inbound');
      assert.equal(again.text, 'Thanks!');
      await eventOf('message.received', (d) => d.data.platformMessageId === 'm_receipt_again');
      // A receipt from someone with no stored conversation goes the usual way.
      const unknown = receipt('psid-receipt-new', 'm_receipt_unknown');
      assert.equal((await postMeta(t, unknown)).status, 200);
      const queued = await db.selectFrom('platform_webhook_events').select('id').where('body', '=', unknown).executeTakeFirstOrThrow();
      await waitFor(async () => ((await db.selectFrom('platform_webhook_events').select('status').where('id', '=', queued.id).executeTakeFirst())?.status === 'processed' ? true : null), 10_000, 'the job processes it');
    });

    test('a stored webhook whose processing fails on its last attempt goes back to unhandled, and the next worker start runs it again', async () => {
      const a = account('facebook');
      const { db } = t.runtime.deps.store;
      const now = t.clock.now();
      // A send that never clears its in-flight mark: every run of the echo's job fails.
      const conversationId = await sendingConversation(a, 'psid-stuck', now + 86_400_000);
      const body = JSON.stringify({ object: 'page', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: a.platformUserId }, recipient: { id: 'psid-stuck' }, timestamp: now, message: { mid: 'm_stuck', is_echo: true, app_id: 1, text: 'from the app' } }] }] });
      await db.insertInto('platform_webhook_events').values({ id: 'stuck-echo', family: 'meta', object: 'page', body, status: 'pending', note: null, received_at: now, processed_at: null }).execute();
      const job = buildJobRegistry(t.runtime.deps).get('platform_event.process');
      assert.ok(job);
      const run = (attempt: number) => job.definition.run({ eventId: 'stuck-echo' }, { jobId: 'test', attempt, maxAttempts: 5, signal: new AbortController().signal, db, log: createLogger('silent'), completeIn: () => Promise.resolve() });
      const status = async () => db.selectFrom('platform_webhook_events').select(['status', 'note']).where('id', '=', 'stuck-echo').executeTakeFirstOrThrow();
      await assert.rejects(run(4));
      assert.equal((await status()).status, 'pending', 'attempts left: the job retries it');
      await assert.rejects(run(5));
      const given = await status();
      assert.equal(given.status, 'unhandled');
      assert.match(given.note ?? '', /^processing failed on every attempt, run again at the next worker start: /);

      await db.updateTable('conversations').set({ sending_until: null }).where('id', '=', conversationId).execute();
      await queueStandingJobs(t.runtime.deps);
      const sent = await eventOf('message.sent', (d) => d.data.platformMessageId === 'm_stuck');
      assert.equal(sent.data.conversationId, conversationId);
      await waitFor(async () => ((await status()).status === 'processed' ? true : null), 8000, 'the re-run');
    });

    test('a messaging row left unhandled before this handler is processed at the worker start', async () => {
      const a = account('instagram-instagram');
      const { db } = t.runtime.deps.store;
      const now = t.clock.now();
      const body = JSON.stringify({ object: 'instagram', entry: [{ id: a.platformUserId, time: now, messaging: [{ sender: { id: 'igsid-old' }, recipient: { id: a.platformUserId }, timestamp: now - 60_000, message: { mid: 'ig_old_1', text: 'anyone there?' } }] }] });
      await db.insertInto('platform_webhook_events').values({ id: 'old-dm', family: 'meta', object: 'instagram', body, status: 'unhandled', note: 'no handler yet for instagram.messaging', received_at: now, processed_at: now }).execute();
      await queueStandingJobs(t.runtime.deps);
      const got = await eventOf('message.received', (d) => d.data.platformMessageId === 'ig_old_1');
      assert.equal(got.data.receivedAt, new Date(now).toISOString());
      assert.equal(got.data.sentAt, new Date(now - 60_000).toISOString());
      const row = await waitFor(async () => {
        const found = await db.selectFrom('platform_webhook_events').selectAll().where('id', '=', 'old-dm').executeTakeFirst();
        return found?.status === 'processed' ? found : null;
      }, 8000, 'the re-run');
      assert.match(row.note ?? '', /1 inbox event/);
    });
  });
}
