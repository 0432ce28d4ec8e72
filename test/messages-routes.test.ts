// The direct-message routes over HTTP against the sandbox, on both stores, for a facebook Page and
// an instagram account of each login: sending text, an attachment by URL and our media, the
// 24-hour window and HUMAN_AGENT's 7 days (checked here first: nothing sent or stored; and the
// platform's own refusal answering the same), a person who blocked the account, marking read
// with and without the platform's seen mark, archiving, the lists and their cursors both ways,
// the syncs with the platform's paging, and the refusals: missing permission (listed by health),
// approval, reconnect, another organization, 400s naming the field, each without a platform call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/lib/ids.ts';
import { createKey } from '../src/modules/keys/service.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import type { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { samples } from './sandbox/helpers.ts';
import {
  addDmAccount, advanceBoth, api, control, journalMark, messageReceiver, platformCalls, startMessagesApp, subscribe,
  type Delivered, type DmAccount, type Kind, type MessagesApp,
} from './messages-support.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

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
  direction: string;
  platformMessageId: string | null;
  text: string | null;
  attachments: Array<{ type: string; url: string | null }>;
  status: string;
  sentAt: string;
}
interface Failure {
  error: { message: string; code?: string };
}

const KINDS: Kind[] = ['facebook', 'instagram-facebook', 'instagram-instagram'];

for (const dialect of DIALECTS) {
  describe(`direct message routes [${dialect}]`, { skip: skipReason(dialect) }, () => {
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
    /** A sandbox person writes to the account; the conversation once the service stored it. */
    async function personWrites(a: DmAccount, name: string, text = 'Hello there'): Promise<{ conversation: Conversation; personId: string; mid: string }> {
      const written = await control(t, 'messages', { accountId: a.platformUserId, text, from: a.platform === 'facebook' ? { name } : { username: name.toLowerCase().replace(/\W+/g, '.'), name } });
      const mid = String(written.mid);
      const event = await waitFor(() => delivered().find((d) => d.event === 'message.received' && d.data.platformMessageId === mid), 10_000, 'message.received');
      const got = await api<{ conversation: Conversation }>(t, key, 'GET', `/inbox/conversations/${event.data.conversationId}`);
      assert.equal(got.status, 200);
      return { conversation: got.body.conversation, personId: String(written.senderId), mid };
    }
    const messagesOf = async (conversationId: string, query = ''): Promise<{ messages: Message[]; nextBefore: string | null }> => {
      const res = await api<{ messages: Message[]; nextBefore: string | null }>(t, key, 'GET', `/inbox/conversations/${conversationId}/messages${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const send = (conversationId: string, body: unknown, withKey = key) => api<{ message: Message } & Failure>(t, withKey, 'POST', `/inbox/conversations/${conversationId}/messages`, body);
    /** A conversation stored directly, for accounts whose refusals are tested without a person. */
    async function storedConversation(a: DmAccount, lastInboundAt: number | null = t.clock.now()): Promise<string> {
      const id = newId('conversation');
      const now = t.clock.now();
      await t.runtime.deps.store.db
        .insertInto('conversations')
        .values({ id, organization_id: org, account_id: a.id, platform: a.platform, platform_conversation_id: null, participant_id: `person-${id}`, participant_username: null, participant_name: null, status: 'active', unread: 0, last_message_at: now, last_message_text: null, last_inbound_at: lastInboundAt, sending_until: null, created_at: now, updated_at: now })
        .execute();
      return id;
    }

    for (const kind of KINDS) {
      test(`${kind}: text, an attachment by URL and by our media; the windows, checked here and by the platform; HUMAN_AGENT`, async () => {
        const a = account(kind);
        const { conversation, personId } = await personWrites(a, `Windows ${kind}`);
        const inboxPath = new RegExp(`/${kind === 'instagram-instagram' ? a.platformUserId : a.pageId}/messages$`);

        // An attachment by URL: the platform fetches it from the URL.
        const media = await t.request('/api/v1/media', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ base64: samples.jpeg.toString('base64'), fileName: 'bread.jpg' }) });
        assert.equal(media.status, 201, await media.clone().text());
        const { media: stored } = (await media.json()) as { media: { id: string; publicUrl: string } };
        let seq = journalMark(t);
        const byUrl = await send(conversation.id, { mediaUrl: stored.publicUrl, attachmentType: 'image' });
        assert.equal(byUrl.status, 201, JSON.stringify(byUrl.body));
        assert.deepEqual(byUrl.body.message.attachments, [{ type: 'image', url: stored.publicUrl }]);
        assert.equal(byUrl.body.message.text, null);
        const urlCall = platformCalls(t, seq).find((c) => inboxPath.test(c.path));
        assert.deepEqual(urlCall?.body, { recipient: { id: personId }, messaging_type: 'RESPONSE', message: { attachment: { type: 'image', payload: { url: stored.publicUrl } } } });

        // Our media by id: sent by its public URL, the type from its MIME type.
        seq = journalMark(t);
        const byId = await send(conversation.id, { mediaId: stored.id });
        assert.equal(byId.status, 201, JSON.stringify(byId.body));
        const idCall = platformCalls(t, seq).find((c) => inboxPath.test(c.path));
        assert.deepEqual((idCall?.body as { message: unknown }).message, { attachment: { type: 'image', payload: { url: stored.publicUrl } } });

        // The platform's own window refusal (its clock is 25 hours on, ours not): 409, nothing stored.
        const before = (await messagesOf(conversation.id)).messages.length;
        t.sandbox.clock.advance(25 * HOUR);
        seq = journalMark(t);
        const refused = await send(conversation.id, { text: 'Still there?' });
        assert.equal(refused.status, 409, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'outside_messaging_window');
        assert.equal(platformCalls(t, seq).filter((c) => inboxPath.test(c.path)).length, 1);
        assert.equal((await messagesOf(conversation.id)).messages.length, before);

        // Our clock catches up: refused here, before any platform call.
        t.clock.offset += 25 * HOUR;
        const got = await api<{ conversation: Conversation }>(t, key, 'GET', `/inbox/conversations/${conversation.id}`);
        assert.equal(got.body.conversation.messagingWindow.open, false);
        seq = journalMark(t);
        const outside = await send(conversation.id, { text: 'Still there?' });
        assert.equal(outside.status, 409);
        assert.equal(outside.body.error.code, 'outside_messaging_window');
        assert.match(outside.body.error.message, /HUMAN_AGENT/);
        assert.deepEqual(platformCalls(t, seq), []);

        // A human agent may answer within 7 days.
        seq = journalMark(t);
        const agent = await send(conversation.id, { text: 'Sorry for the wait', tag: 'HUMAN_AGENT' });
        assert.equal(agent.status, 201, JSON.stringify(agent.body));
        assert.deepEqual(platformCalls(t, seq).find((c) => inboxPath.test(c.path))?.body, { recipient: { id: personId }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT', message: { text: 'Sorry for the wait' } });

        // After 7 days not even that.
        advanceBoth(t, 7 * DAY);
        seq = journalMark(t);
        const late = await send(conversation.id, { text: 'Hello?', tag: 'HUMAN_AGENT' });
        assert.equal(late.status, 409);
        assert.equal(late.body.error.code, 'outside_messaging_window');
        assert.deepEqual(platformCalls(t, seq), []);
        assert.deepEqual((await messagesOf(conversation.id)).messages.map((m) => m.text), ['Hello there', null, null, 'Sorry for the wait']);
      });
    }

    test('a person who blocked the account: 409 recipient_unavailable, nothing stored', async () => {
      const a = account('facebook');
      const { conversation, personId } = await personWrites(a, 'Blocking Person');
      await control(t, 'blocks', { accountId: a.platformUserId, from: { id: personId } });
      const res = await send(conversation.id, { text: 'Hi' });
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'recipient_unavailable');
      assert.equal((await messagesOf(conversation.id)).messages.length, 1);
    });

    test('marking read: the seen mark reaches the platform unless platform is false; unread goes to 0', async () => {
      for (const kind of KINDS) {
        const a = account(kind);
        const { conversation, personId } = await personWrites(a, `Reader ${kind}`);
        assert.equal(conversation.unread, 1);
        let seq = journalMark(t);
        const local = await api<{ conversation: Conversation }>(t, key, 'POST', `/inbox/conversations/${conversation.id}/read`, { platform: false });
        assert.equal(local.status, 200);
        assert.equal(local.body.conversation.unread, 0);
        assert.deepEqual(platformCalls(t, seq), []);
        assert.equal((await messagesOf(conversation.id)).messages[0]?.status, 'read');
        seq = journalMark(t);
        const seen = await api<{ conversation: Conversation }>(t, key, 'POST', `/inbox/conversations/${conversation.id}/read`); // no body: platform defaults to true
        assert.equal(seen.status, 200, JSON.stringify(seen.body));
        const calls = platformCalls(t, seq);
        assert.equal(calls.length, 1);
        assert.deepEqual(calls[0]?.body, { recipient: { id: personId }, sender_action: 'mark_seen' });
      }
    });

    test('lists: archived and unread filters, platform and account, latest first, the cursor both ways through pages', async () => {
      const { key: otherKey } = await t.tenant();
      const a = account('instagram-instagram');
      const first = await personWrites(a, 'List One');
      const second = await personWrites(a, 'List Two');
      const archived = await api<{ conversation: Conversation }>(t, key, 'PATCH', `/inbox/conversations/${first.conversation.id}`, { status: 'archived' });
      assert.equal(archived.status, 200);
      assert.equal(archived.body.conversation.status, 'archived');
      const ids = async (query: string, withKey = key) => {
        const res = await api<{ conversations: Conversation[]; cursor: string | null }>(t, withKey, 'GET', `/inbox/conversations${query}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.conversations.map((c) => c.id);
      };
      const ofAccount = await ids(`?accountId=${a.id}`);
      assert.deepEqual(ofAccount.slice(0, 2), [second.conversation.id, first.conversation.id]);
      assert.ok(!(await ids(`?accountId=${a.id}&status=active`)).includes(first.conversation.id));
      assert.deepEqual(await ids(`?accountId=${a.id}&status=archived`), [first.conversation.id]);
      assert.ok((await ids('?platform=facebook')).every((id) => !ofAccount.includes(id)));
      assert.ok((await ids('?platform=instagram')).includes(second.conversation.id));
      await api(t, key, 'POST', `/inbox/conversations/${second.conversation.id}/read`, { platform: false });
      assert.ok(!(await ids(`?accountId=${a.id}&unread=true`)).includes(second.conversation.id));
      // A new message from the person brings an archived conversation back.
      await control(t, 'messages', { accountId: a.platformUserId, text: 'Back again', from: { id: first.personId } });
      await waitFor(async () => ((await ids(`?accountId=${a.id}&status=active`))[0] === first.conversation.id ? true : null), 10_000, 'the conversation active again');

      // Every conversation of the organization, page by page with the cursor, once each, latest first.
      const all = await ids('?limit=100');
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: { conversations: Conversation[]; cursor: string | null } } = await api(t, key, 'GET', `/inbox/conversations?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.equal(res.status, 200);
        assert.ok(res.body.conversations.length <= 2);
        paged.push(...res.body.conversations.map((c) => c.id));
        cursor = res.body.cursor;
      } while (cursor);
      assert.deepEqual(paged, all);
      assert.ok(all.length >= 5);

      // Isolation and input.
      assert.deepEqual(await ids('', otherKey), []);
      assert.equal((await api(t, otherKey, 'GET', `/inbox/conversations/${first.conversation.id}`)).status, 404);
      assert.equal((await api(t, otherKey, 'GET', `/inbox/conversations/${first.conversation.id}/messages`)).status, 404);
      assert.equal((await api(t, otherKey, 'PATCH', `/inbox/conversations/${first.conversation.id}`, { status: 'active' })).status, 404);
      assert.equal((await api(t, otherKey, 'GET', `/inbox/conversations?accountId=${a.id}`)).status, 404);
      const badCursor = await api<Failure>(t, key, 'GET', '/inbox/conversations?cursor=nonsense');
      assert.equal(badCursor.status, 400);
      assert.match(badCursor.body.error.message, /^cursor: /);
      const badStatus = await api<Failure>(t, key, 'PATCH', `/inbox/conversations/${first.conversation.id}`, { status: 'deleted' });
      assert.equal(badStatus.status, 400);
      assert.match(badStatus.body.error.message, /status/);
    });

    test('history: a page oldest to newest, nextBefore to the page before, until there is none', async () => {
      const a = account('facebook');
      const { conversation } = await personWrites(a, 'Long History', 'message 0');
      const { db } = t.runtime.deps.store;
      const start = Date.parse((await messagesOf(conversation.id)).messages[0]?.sentAt ?? '') - 200 * 60_000;
      const rows = Array.from({ length: 119 }, (_, i) => ({
        id: newId('message'), organization_id: org, account_id: a.id, conversation_id: conversation.id, direction: i % 2 ? ('outbound' as const) : ('inbound' as const),
        platform_message_id: `m_hist_${dialect}_${i}`, text: `old ${i}`, attachments: '[]', status: 'read' as const, sent_at: start + i * 60_000, reaction: null, postback: null, created_at: start,
      }));
      await db.insertInto('messages').values(rows).execute();
      const pages: Message[][] = [];
      let before: string | null = null;
      do {
        const page = await messagesOf(conversation.id, `?limit=50${before ? `&before=${encodeURIComponent(before)}` : ''}`);
        pages.push(page.messages);
        before = page.nextBefore;
      } while (before);
      assert.deepEqual(pages.map((p) => p.length), [50, 50, 20]);
      const texts = pages.reverse().flat().map((m) => m.text);
      assert.deepEqual(texts, [...rows.map((r) => r.text), 'message 0']);
      assert.equal((await messagesOf(conversation.id)).messages.length, 50);
      const bad = await api<Failure>(t, key, 'GET', `/inbox/conversations/${conversation.id}/messages?before=p1.zzz`);
      assert.equal(bad.status, 400);
      assert.match(bad.body.error.message, /^before: /);
      assert.equal((await api(t, key, 'GET', `/inbox/conversations/${conversation.id}/messages?limit=101`)).status, 400);
    });

    test("syncs: a conversation's sync before the account's is 409 sync_required; the account's follows the platform's pages; nothing is stored twice", async () => {
      for (const kind of KINDS) {
        const a = await addDmAccount(t, org, kind);
        // Someone wrote before the account was subscribed: the service first hears of them by the sync.
        const quiet = await control(t, 'messages', { accountId: a.platformUserId, text: 'before you subscribed', from: a.platform === 'facebook' ? { name: 'Quiet Person' } : { username: 'quiet.person', name: 'Quiet Person' } });
        await subscribe(t, key, a);
        const one = await personWrites(a, `Sync One ${kind}`, 'first person');
        const two = await personWrites(a, `Sync Two ${kind}`, 'second person');
        // A message the service never heard of (its record lost below). Graph times have whole seconds: it is seconds later.
        advanceBoth(t, 2000);
        await control(t, 'app-messages', { accountId: a.platformUserId, to: { id: one.personId }, text: 'answered in the app' });
        await waitFor(async () => ((await messagesOf(one.conversation.id)).messages.length === 2 ? true : null), 10_000, 'the echo');
        await t.runtime.deps.store.db.deleteFrom('messages').where('conversation_id', '=', one.conversation.id).where('direction', '=', 'outbound').execute();

        let seq = journalMark(t);
        const early = await api<Failure>(t, key, 'POST', `/inbox/conversations/${one.conversation.id}/sync`, {});
        assert.equal(early.status, 409);
        assert.equal(early.body.error.code, 'sync_required');
        assert.deepEqual(platformCalls(t, seq), []);

        seq = journalMark(t);
        const synced = await api<{ conversations: Conversation[]; messagesStored: number }>(t, key, 'POST', '/inbox/conversations/sync', { accountId: a.id, limit: 2, pages: 2 });
        assert.equal(synced.status, 200, JSON.stringify(synced.body));
        const quietConversation = synced.body.conversations.find((c) => c.participant.id === quiet.senderId);
        assert.ok(quietConversation, JSON.stringify(synced.body.conversations));
        assert.deepEqual(quietConversation.participant, { id: quiet.senderId, username: a.platform === 'facebook' ? null : 'quiet.person', name: 'Quiet Person' });
        assert.equal(quietConversation.lastMessageText, 'before you subscribed');
        assert.equal(quietConversation.messagingWindow.open, true);
        assert.deepEqual(synced.body.conversations.map((c) => c.id).sort(), [one.conversation.id, two.conversation.id, quietConversation.id].sort());
        assert.equal(synced.body.messagesStored, 2);
        const lists = platformCalls(t, seq).filter((c) => c.path.endsWith('/conversations'));
        assert.equal(lists.length, 2);
        assert.equal(lists[0]?.query.limit, '2');
        assert.equal(lists[0]?.query.platform, a.platform === 'facebook' ? 'messenger' : 'instagram');
        assert.ok(lists[1]?.query.after, 'the second page follows the cursor');
        assert.deepEqual((await messagesOf(one.conversation.id)).messages.map((m) => [m.direction, m.text]), [['inbound', 'first person'], ['outbound', 'answered in the app']]);

        const again = await api<{ conversation: Conversation; messagesStored: number }>(t, key, 'POST', `/inbox/conversations/${one.conversation.id}/sync`, { limit: 10 });
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.equal(again.body.messagesStored, 0);
        assert.equal(again.body.conversation.lastMessageText, 'answered in the app');
        const twice = await api<{ messagesStored: number }>(t, key, 'POST', '/inbox/conversations/sync', { accountId: a.id });
        assert.equal(twice.body.messagesStored, 0);
      }
    });

    test('refusals before any platform call: missing permission (and health lists it), approval, reconnect, not found, 400s', async () => {
      // Missing messaging permissions: a Page without pages_messaging, instagram accounts without their messaging permission.
      for (const [kind, scopes, permission] of [
        ['facebook', ['pages_show_list', 'pages_manage_metadata', 'pages_read_engagement'], 'pages_messaging'],
        ['instagram-facebook', ['pages_show_list', 'pages_manage_metadata', 'instagram_basic', 'pages_messaging'], 'instagram_manage_messages'],
        ['instagram-instagram', ['instagram_business_basic'], 'instagram_business_manage_messages'],
      ] as const) {
        const a = await addDmAccount(t, org, kind, { scopes: [...scopes] });
        const id = await storedConversation(a);
        const seq = journalMark(t);
        for (const [method, path, body] of [['POST', `/inbox/conversations/${id}/messages`, { text: 'hi' }], ['POST', `/inbox/conversations/${id}/read`, {}], ['POST', '/inbox/conversations/sync', { accountId: a.id }]] as const) {
          const res = await api<Failure>(t, key, method, path, body);
          assert.equal(res.status, 403, `${kind} ${path}`);
          assert.equal(res.body.error.code, 'missing_permission');
          assert.match(res.body.error.message, new RegExp(permission));
        }
        assert.deepEqual(platformCalls(t, seq), []);
        const health = await api<{ health: { missingPermissions: Array<{ permission: string; features: string[] }> } }>(t, key, 'GET', `/accounts/${a.id}/health`);
        assert.equal(health.status, 200, JSON.stringify(health.body));
        assert.ok(health.body.health.missingPermissions.some((m) => m.permission === permission && m.features.includes('messages')), JSON.stringify(health.body.health.missingPermissions));
      }

      // Approval: the account's, or the key's.
      const approval = await addDmAccount(t, org, 'facebook', { approval: true });
      const held = await storedConversation(approval);
      const open = await storedConversation(account('facebook'));
      const { key: approvalKey } = await createKey(t.runtime.deps.store.db, t.runtime.deps.clock, org, { approvalRequired: true });
      let seq = journalMark(t);
      for (const [id, withKey] of [[held, key], [open, approvalKey]] as const) {
        const res = await send(id, { text: 'hi' }, withKey);
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'approval_required');
      }
      // Reading is allowed under approval.
      assert.equal((await api(t, approvalKey, 'GET', `/inbox/conversations/${open}`)).status, 200);
      assert.deepEqual(platformCalls(t, seq), []);

      // Reconnect.
      const stale = await addDmAccount(t, org, 'instagram-instagram', { status: 'needs_reconnect' });
      const staleId = await storedConversation(stale);
      seq = journalMark(t);
      const reconnect = await send(staleId, { text: 'hi' });
      assert.equal(reconnect.status, 409);
      assert.equal(reconnect.body.error.code, 'reconnect_required');
      assert.equal((await api<Failure>(t, key, 'POST', `/inbox/conversations/${staleId}/read`, {})).body.error.code, 'reconnect_required');

      // Another organization, unknown ids.
      const { key: otherKey } = await t.tenant();
      assert.equal((await send(open, { text: 'hi' }, otherKey)).status, 404);
      assert.equal((await api(t, otherKey, 'POST', `/inbox/conversations/${open}/read`, {})).status, 404);
      assert.equal((await api(t, otherKey, 'POST', `/inbox/conversations/${open}/sync`, {})).status, 404);
      assert.equal((await api(t, otherKey, 'POST', '/inbox/conversations/sync', { accountId: account('facebook').id })).status, 404);
      assert.equal((await send('conv_unknown', { text: 'hi' })).status, 404);

      // 400s naming the field.
      const cases: Array<[unknown, RegExp]> = [
        [{}, /^text: required/],
        [{ text: 'a', mediaUrl: 'https://example.com/a.jpg', attachmentType: 'image' }, /^mediaUrl: /],
        [{ mediaUrl: 'https://example.com/a.jpg' }, /^attachmentType: required/],
        [{ mediaUrl: 'ftp://example.com/a.jpg', attachmentType: 'image' }, /^mediaUrl: /],
        [{ text: 'a', attachmentType: 'image' }, /^attachmentType: /],
        [{ mediaId: 'med_unknown' }, /^mediaId: no such media/],
        [{ text: 'x'.repeat(2001) }, /text/],
        [{ text: 'a', tag: 'ACCOUNT_UPDATE' }, /tag/],
        [{ mediaUrl: 'https://example.com/a.jpg', attachmentType: 'sticker' }, /attachmentType/],
      ];
      for (const [body, message] of cases) {
        const res = await send(open, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.error.message, message, JSON.stringify(body));
      }
      assert.match((await api<Failure>(t, key, 'POST', '/inbox/conversations/sync', {})).body.error.message, /accountId/);
      assert.deepEqual(platformCalls(t, seq), []);
    });
  });
}
