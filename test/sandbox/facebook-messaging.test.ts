// Page webhooks, Messenger and insights against the sandbox (platforms.md §3.3–3.4, §8.3,
// §8.5, §10.3): the Page installs the app (`subscribed_apps`), people comment, react and write
// through the control API, the Page answers through the Send API under the 24-hour rule, and a
// real receiver on 127.0.0.1 verifies every signed `object: "page"` notification.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setPageTasks } from '../../src/sandbox/meta/simulate.ts';
import { control, FB_APP, FB_SECRET, form, getJson, metaWorld, postJson, receiver, subscribeApp, type MetaWorld, type Receiver } from './facebook-helpers.ts';

type Entry = { id: string; time: number; changes?: Array<{ field: string; value: Record<string, unknown> }>; messaging?: Array<Record<string, unknown>> };

describe('Facebook Page webhooks, Messenger and insights', () => {
  let w: MetaWorld;
  let hook: Receiver;
  const entries = (): Entry[] => hook.events.filter((e) => e.object === 'page').map((e) => e.entry[0] as Entry);
  const lastChange = () => entries().filter((e) => e.changes).at(-1)?.changes?.[0];
  const lastMessaging = (key: string) => entries().filter((e) => e.messaging?.[0]?.[key]).at(-1)?.messaging?.[0];
  const send = (body: Record<string, unknown>, token = w.pageToken, node = 'me') => postJson(`${w.fb}/${node}/messages?access_token=${token}`, body);

  before(async () => {
    w = await metaWorld();
    hook = await receiver(FB_SECRET);
    await subscribeApp(w, FB_APP, FB_SECRET, 'page', ['feed', 'messages', 'message_echoes', 'message_deliveries', 'message_reads', 'message_reactions', 'messaging_postbacks'], hook.url);
  });
  after(async () => {
    await w.close();
    await hook.close();
  });

  test('subscribed_apps needs a Page token with pages_manage_metadata, lists the app', async () => {
    assert.equal((await form(`${w.fb}/${w.pageId}/subscribed_apps`, { access_token: w.userToken, subscribed_fields: 'feed' })).body.error?.code, 190);
    assert.equal((await form(`${w.fb}/${w.pageId}/subscribed_apps`, { access_token: w.pageToken })).body.error?.code, 100);
    const fields = 'feed,messages,message_echoes,message_deliveries,message_reads,message_reactions,messaging_postbacks';
    assert.deepEqual((await form(`${w.fb}/${w.pageId}/subscribed_apps`, { access_token: w.pageToken, subscribed_fields: fields })).body, { success: true });
    const list = await getJson<{ data: Array<{ id: string; subscribed_fields: string[] }> }>(`${w.fb}/${w.pageId}/subscribed_apps?access_token=${w.pageToken}`);
    assert.deepEqual(list.data.map((a) => a.id), [FB_APP]);
  });

  test('feed webhooks: the Page posts, a person comments and reacts, the Page replies', async () => {
    const post = String((await form(`${w.fb}/${w.pageId}/feed`, { access_token: w.pageToken, message: 'New loaves' })).body.id);
    await w.sb.state.idle();
    assert.deepEqual(lastChange()?.value.post_id, post);
    assert.deepEqual([lastChange()?.value.item, lastChange()?.value.verb], ['status', 'add']);
    const { id: comment } = (await control(w, 'meta/comments', { objectId: post, message: 'how much?', from: { name: 'Dana W' } })) as { id: string };
    await w.sb.state.idle();
    const change = lastChange();
    assert.equal(change?.field, 'feed');
    assert.equal(entries().at(-1)?.id, w.pageId);
    assert.deepEqual(
      [change?.value.item, change?.value.verb, change?.value.comment_id, change?.value.post_id, change?.value.parent_id, change?.value.message, (change?.value.from as { name: string }).name],
      ['comment', 'add', comment, post, post, 'how much?', 'Dana W'],
    );
    assert.equal(typeof change?.value.created_time, 'number');
    await control(w, 'meta/reactions', { postId: post, reaction: 'love', from: { name: 'Dana W' } });
    await w.sb.state.idle();
    assert.deepEqual([lastChange()?.value.item, lastChange()?.value.reaction_type], ['reaction', 'love']);
    await form(`${w.fb}/${comment}/comments`, { access_token: w.pageToken, message: '3 euros' });
    await w.sb.state.idle();
    assert.deepEqual([lastChange()?.value.parent_id, (lastChange()?.value.from as { id: string }).id], [comment, w.pageId]);
    const reactions = await getJson<{ reactions: { summary: { total_count: number } } }>(`${w.fb}/${post}?fields=reactions.summary(true)&access_token=${w.pageToken}`);
    assert.equal(reactions.reactions.summary.total_count, 1);
  });

  test('Messenger: a DM arrives as `messages`; the Page answers with echo and delivery; window rules 10/2018278', async () => {
    const dm = (await control(w, 'meta/messages', { accountId: w.pageId, text: 'Are you open?', from: { name: 'Sam Buyer' } })) as { senderId: string; mid: string };
    await w.sb.state.idle();
    const inbound = lastMessaging('message');
    assert.deepEqual([inbound?.sender, inbound?.recipient, inbound?.message], [{ id: dm.senderId }, { id: w.pageId }, { mid: dm.mid, text: 'Are you open?' }]);
    assert.equal(typeof inbound?.timestamp, 'number');

    assert.equal((await send({ recipient: { id: dm.senderId }, message: { text: 'no type' } })).body.error?.code, 100);
    const sent = await send({ recipient: { id: dm.senderId }, messaging_type: 'RESPONSE', message: { text: 'Until 6pm', metadata: 'agent-7' } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.match(String(sent.body.message_id), /^m_/);
    await w.sb.state.idle();
    const echo = entries().filter((e) => (e.messaging?.[0]?.message as { is_echo?: boolean } | undefined)?.is_echo).at(-1)?.messaging?.[0];
    assert.deepEqual(echo?.message, { mid: sent.body.message_id, is_echo: true, app_id: Number(FB_APP), metadata: 'agent-7', text: 'Until 6pm' });
    assert.deepEqual(echo?.sender, { id: w.pageId });
    assert.deepEqual((lastMessaging('delivery')?.delivery as { mids: string[] }).mids, [sent.body.message_id]);
    assert.deepEqual((await send({ recipient: { id: dm.senderId }, sender_action: 'mark_seen' })).body, { recipient_id: dm.senderId });
    assert.equal((await send({ recipient: { id: dm.senderId }, messaging_type: 'RESPONSE', message: { text: 'x'.repeat(2001) } })).body.error?.code, 100);
    assert.equal((await send({ recipient: { id: dm.senderId }, messaging_type: 'RESPONSE', message: { attachment: { type: 'image', payload: { url: `${w.files.url}/missing.jpg` } } } })).body.error?.error_subcode, 2018008);
    assert.equal((await send({ recipient: { id: dm.senderId }, messaging_type: 'RESPONSE', message: { attachment: { type: 'image', payload: { url: `${w.files.url}/a.jpg`, is_reusable: true } } } })).status, 200);
    assert.equal((await send({ recipient: { id: dm.senderId }, messaging_type: 'RESPONSE', message: { text: 'hi' } }, w.userToken, w.pageId)).body.error?.code, 190);
    assert.equal((await send({ recipient: { id: '123' }, messaging_type: 'RESPONSE', message: { text: 'hi' } })).body.error?.error_subcode, 2018001);

    await control(w, 'meta/reads', { accountId: w.pageId, from: { id: dm.senderId } });
    await control(w, 'meta/postbacks', { accountId: w.pageId, from: { id: dm.senderId }, title: 'Get Started', payload: 'GET_STARTED' });
    await w.sb.state.idle();
    assert.equal(typeof (lastMessaging('read')?.read as { watermark: number }).watermark, 'number');
    assert.deepEqual((lastMessaging('postback')?.postback as { payload: string }).payload, 'GET_STARTED');

    w.sb.state.clock.advance(25 * 3600_000);
    const late = await send({ recipient: { id: dm.senderId }, messaging_type: 'RESPONSE', message: { text: 'Hello again' } });
    assert.deepEqual([late.status, late.body.error?.code, late.body.error?.error_subcode], [403, 10, 2018278]);
    assert.equal((await send({ recipient: { id: dm.senderId }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT', message: { text: 'Agent' } })).status, 200);

    const conversations = await getJson<{ data: Array<{ id: string; participants: { data: Array<{ id: string; email: string }> }; messages: { data: Array<{ id: string; message: string }> } }> }>(
      `${w.fb}/${w.pageId}/conversations?platform=messenger&fields=participants,messages{id,message}&access_token=${w.pageToken}`,
    );
    const thread = conversations.data[0];
    assert.match(thread?.id ?? '', /^t_/);
    assert.deepEqual(thread?.participants.data.map((p) => p.id), [dm.senderId, w.pageId]);
    assert.equal(thread?.participants.data[0]?.email, `${dm.senderId}@facebook.com`);
    assert.equal(thread?.messages.data[0]?.message, 'Agent');
    const message = await getJson<{ from: { id: string }; message: string; to: { data: Array<{ id: string }> } }>(`${w.fb}/${dm.mid}?fields=id,created_time,from,to,message&access_token=${w.pageToken}`);
    assert.deepEqual([message.from.id, message.message, message.to.data[0]?.id], [dm.senderId, 'Are you open?', w.pageId]);
  });

  test('a private reply to a Page comment opens a conversation with its author', async () => {
    const post = String((await form(`${w.fb}/${w.pageId}/feed`, { access_token: w.pageToken, message: 'Ask me privately' })).body.id);
    const { id } = (await control(w, 'meta/comments', { objectId: post, message: 'DM me the price', from: { name: 'Quiet Person' } })) as { id: string };
    const reply = await send({ recipient: { comment_id: id }, message: { text: 'Sent!' } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal((await send({ recipient: { comment_id: id }, message: { text: 'Twice' } })).status, 403);
  });

  test('insights: Page metrics over since/until, post metrics, deprecated metrics are 100', async () => {
    const since = Math.floor(w.sb.state.clock.now() / 1000) - 7 * 86_400;
    const until = Math.floor(w.sb.state.clock.now() / 1000);
    const page = await getJson<{ data: Array<{ name: string; period: string; values: Array<{ value: number; end_time: string }> }>; paging: { next: string } }>(
      `${w.fb}/${w.pageId}/insights?metric=page_post_engagements,page_follows&period=day&since=${since}&until=${until}&access_token=${w.pageToken}`,
    );
    assert.deepEqual(page.data.map((m) => m.name), ['page_post_engagements', 'page_follows']);
    assert.ok((page.data[0]?.values.length ?? 0) >= 7);
    assert.match(page.data[0]?.values[0]?.end_time ?? '', /\+0000$/);
    assert.ok(page.paging.next);
    assert.equal((await getJson<{ error: { code: number } }>(`${w.fb}/${w.pageId}/insights?metric=page_impressions&access_token=${w.pageToken}`)).error.code, 100);
    const post = String((await form(`${w.fb}/${w.pageId}/feed`, { access_token: w.pageToken, message: 'Measure me' })).body.id);
    const insights = await getJson<{ data: Array<{ name: string; period: string; values: Array<{ value: unknown }> }> }>(`${w.fb}/${post}/insights?metric=post_clicks,post_reactions_by_type_total&access_token=${w.pageToken}`);
    assert.deepEqual(insights.data.map((m) => [m.name, m.period]), [['post_clicks', 'lifetime'], ['post_reactions_by_type_total', 'lifetime']]);
    setPageTasks(w.sb.state, w.pageId, ['CREATE_CONTENT']);
    assert.equal((await getJson<{ error: { code: number } }>(`${w.fb}/${post}/insights?metric=post_clicks&access_token=${w.pageToken}`)).error.code, 200);
    setPageTasks(w.sb.state, w.pageId, ['MANAGE']);
  });
});
