// Instagram comments, mentions, messaging, insights and webhooks against the sandbox
// (platforms.md §2.6–2.9, §8.4–8.5, §10.1–10.2): people act through the control API, the
// account answers through the Graph API, and a real receiver on 127.0.0.1 checks the signed
// `object: "instagram"` notifications.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { control, FB_APP, FB_SECRET, form, getJson, IG_APP, IG_SECRET, instagramLogin, metaWorld, postJson, receiver, subscribeApp, type MetaWorld, type Receiver } from './facebook-helpers.ts';

describe('Instagram comments, mentions, messaging and insights', () => {
  let w: MetaWorld;
  let igToken: string;
  let hook: Receiver;
  let mediaId: string;
  const last = () => hook.events.at(-1);
  const settled = () => w.sb.state.idle();

  before(async () => {
    w = await metaWorld();
    igToken = (await instagramLogin(w.sb)).token;
    hook = await receiver(IG_SECRET);
    await subscribeApp(w, IG_APP, IG_SECRET, 'instagram', ['comments', 'mentions', 'messages', 'message_reactions', 'messaging_seen', 'messaging_postbacks'], hook.url);
    const sub = await form(`${w.ig}/me/subscribed_apps`, { access_token: igToken, subscribed_fields: 'comments,mentions,messages,message_reactions,messaging_seen,messaging_postbacks' });
    assert.deepEqual(sub.body, { success: true });
    const container = String((await form(`${w.ig}/me/media`, { access_token: igToken, image_url: `${w.files.url}/a.jpg`, caption: 'Comment here' })).body.id);
    await settled();
    w.sb.state.clock.advance(5000);
    mediaId = String((await form(`${w.ig}/me/media_publish`, { access_token: igToken, creation_id: container })).body.id);
  });
  after(async () => {
    await w.close();
    await hook.close();
  });

  test('subscribed_apps lists the app and its fields; unknown fields are refused', async () => {
    const list = await getJson<{ data: Array<{ id: string; subscribed_fields: string[] }> }>(`${w.ig}/me/subscribed_apps?access_token=${igToken}`);
    assert.equal(list.data[0]?.id, IG_APP);
    assert.ok(list.data[0]?.subscribed_fields.includes('comments'));
    assert.equal((await form(`${w.ig}/me/subscribed_apps`, { access_token: igToken, subscribed_fields: 'feed' })).body.error?.code, 100);
    assert.equal((await form(`${w.ig}/me/subscribed_apps`, { access_token: igToken })).body.error?.code, 100);
  });

  test('a person comments: the comments webhook arrives signed; the account replies, hides, deletes', async () => {
    const { id } = (await control(w, 'meta/comments', { objectId: mediaId, message: 'Love it', from: { username: 'dana.w' } })) as { id: string };
    await settled();
    const event = last();
    assert.equal(event?.object, 'instagram');
    assert.equal(event?.entry[0]?.id, w.igUserId);
    assert.equal(typeof event?.entry[0]?.time, 'number');
    const change = (event?.entry[0]?.changes as Array<{ field: string; value: Record<string, unknown> }>)[0];
    assert.equal(change?.field, 'comments');
    assert.deepEqual(change?.value, { from: { id: change?.value.from && (change.value.from as { id: string }).id, username: 'dana.w' }, media: { id: mediaId, media_product_type: 'FEED' }, id, text: 'Love it' });

    const reply = await form(`${w.ig}/${id}/replies`, { access_token: igToken, message: 'Thank you!' });
    assert.equal(reply.status, 200);
    const comments = await getJson<{ data: Array<{ id: string; text: string; username: string; replies: { data: Array<{ text: string }> } }> }>(
      `${w.fb}/${mediaId}/comments?fields=id,text,username,replies{text}&access_token=${w.userToken}`,
    );
    assert.deepEqual(comments.data.map((c) => [c.text, c.username, c.replies.data.map((r) => r.text)]), [['Love it', 'dana.w', ['Thank you!']]]);
    // One level of replies: a reply to a reply is refused, and nothing is stored.
    const stored = w.sb.state.meta.igComments.size;
    const nested = await form(`${w.ig}/${String(reply.body.id)}/replies`, { access_token: igToken, message: 'And again' });
    assert.equal(nested.status, 400);
    assert.equal((nested.body.error as { code?: number } | undefined)?.code, 100);
    assert.equal(w.sb.state.meta.igComments.size, stored);
    assert.equal((await getJson<{ parent_id: string }>(`${w.ig}/${String(reply.body.id)}?fields=id,parent_id&access_token=${igToken}`)).parent_id, id);
    assert.deepEqual((await form(`${w.ig}/${id}`, { access_token: igToken, hide: 'true' })).body, { success: true });
    assert.equal((await getJson<{ hidden: boolean }>(`${w.ig}/${id}?fields=hidden&access_token=${igToken}`)).hidden, true);
    const own = await form(`${w.ig}/${mediaId}/comments`, { access_token: igToken, message: 'Our own comment' });
    assert.deepEqual(await (await fetch(`${w.ig}/${String(own.body.id)}?access_token=${igToken}`, { method: 'DELETE' })).json(), { success: true });
    const { token: noComments } = await instagramLogin(w.sb, ['instagram_business_basic']);
    assert.equal((await getJson<{ error: { code: number } }>(`${w.ig}/${mediaId}/comments?access_token=${noComments}`)).error.code, 10);
  });

  test('mentions: caption and comment mentions send `mentions`; mentioned_media, tags, replying to a mention', async () => {
    const caption = (await control(w, 'meta/mentions', { accountId: w.igUserId, kind: 'caption', text: 'Best bread @sandbox.bakery', from: { username: 'fan' } })) as { mediaId: string };
    await settled();
    assert.deepEqual((last()?.entry[0]?.changes as unknown[])[0], { field: 'mentions', value: { media_id: caption.mediaId } });
    const comment = (await control(w, 'meta/mentions', { accountId: w.igUserId, kind: 'comment', text: '@sandbox.bakery open today?' })) as { mediaId: string; commentId: string };
    await settled();
    assert.deepEqual((last()?.entry[0]?.changes as unknown[])[0], { field: 'mentions', value: { media_id: comment.mediaId, comment_id: comment.commentId } });
    const mentioned = await getJson<{ mentioned_media: { caption: string; id: string } }>(`${w.fb}/${w.igUserId}?fields=mentioned_media.media_id(${caption.mediaId}){caption}&access_token=${w.userToken}`);
    assert.equal(mentioned.mentioned_media.caption, 'Best bread @sandbox.bakery');
    const mc = await getJson<{ mentioned_comment: { text: string } }>(`${w.fb}/${w.igUserId}?fields=mentioned_comment.comment_id(${comment.commentId}){text}&access_token=${w.userToken}`);
    assert.equal(mc.mentioned_comment.text, '@sandbox.bakery open today?');
    const answer = await form(`${w.fb}/${w.igUserId}/mentions`, { access_token: w.userToken, media_id: comment.mediaId, comment_id: comment.commentId, message: 'Yes, until 6!' });
    assert.equal(answer.status, 200);
    const tag = (await control(w, 'meta/mentions', { accountId: w.igUserId, kind: 'tag' })) as { mediaId: string };
    const tags = await getJson<{ data: Array<{ id: string }> }>(`${w.fb}/${w.igUserId}/tags?access_token=${w.userToken}`);
    assert.deepEqual(tags.data.map((t) => t.id), [tag.mediaId]);
  });

  test('messaging: a DM opens the window; sending works for 24 h, then 10/2534022 unless HUMAN_AGENT within 7 days', async () => {
    const dm = (await control(w, 'meta/messages', { accountId: w.igUserId, text: 'Do you deliver?', from: { username: 'buyer' } })) as { senderId: string; mid: string };
    await settled();
    const inbound = (last()?.entry[0]?.messaging as Array<Record<string, unknown>>)[0];
    assert.deepEqual(inbound?.sender, { id: dm.senderId });
    assert.deepEqual(inbound?.recipient, { id: w.igUserId });
    assert.deepEqual(inbound?.message, { mid: dm.mid, text: 'Do you deliver?' });
    const send = (body: Record<string, unknown>, base = w.ig, token = igToken, path = 'me') => postJson(`${base}/${path}/messages?access_token=${token}`, body);
    const sent = await send({ recipient: { id: dm.senderId }, message: { text: 'Yes we do' } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.recipient_id, dm.senderId);
    assert.match(String(sent.body.message_id), /^aWdf/);
    await settled();
    const echo = (last()?.entry[0]?.messaging as Array<{ message: { is_echo: boolean; text: string } }>)[0];
    assert.deepEqual([echo?.message.is_echo, echo?.message.text], [true, 'Yes we do']);
    assert.deepEqual((await send({ recipient: { id: dm.senderId }, sender_action: 'typing_on' })).body, { recipient_id: dm.senderId });
    assert.equal((await send({ recipient: { id: dm.senderId }, sender_action: 'react', payload: { message_id: dm.mid, reaction: 'love' } })).status, 200);
    assert.deepEqual([(await send({ recipient: { id: '999' }, message: { text: 'x' } })).body.error?.error_subcode], [2534014]);
    // Via the Page on graph.facebook.com (Page token).
    assert.equal((await send({ recipient: { id: dm.senderId }, message: { text: 'from the Page' } }, w.fb, w.pageToken, w.pageId)).status, 200);

    await control(w, 'meta/reads', { accountId: w.igUserId, from: { id: dm.senderId } });
    await control(w, 'meta/reactions', { mid: sent.body.message_id, reaction: 'love' });
    await settled();
    const reaction = (last()?.entry[0]?.messaging as Array<{ reaction: Record<string, unknown> }>)[0];
    assert.deepEqual(reaction?.reaction, { mid: sent.body.message_id, action: 'react', reaction: 'love', emoji: '❤' });
    const seen = hook.events.at(-2)?.entry[0]?.messaging as Array<{ read: { mid: string } }>;
    assert.ok(seen[0]?.read.mid);

    w.sb.state.clock.advance(25 * 3600_000);
    const late = await send({ recipient: { id: dm.senderId }, message: { text: 'Still there?' } });
    assert.deepEqual([late.body.error?.code, late.body.error?.error_subcode], [10, 2534022]);
    assert.equal((await send({ recipient: { id: dm.senderId }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT', message: { text: 'An agent here' } })).status, 200);
    w.sb.state.clock.advance(7 * 86_400_000);
    assert.equal((await send({ recipient: { id: dm.senderId }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT', message: { text: 'Too late' } })).body.error?.error_subcode, 2534022);

    const conversations = await getJson<{ data: Array<{ id: string; messages: { data: Array<{ message: string; from: { username: string } }> } }> }>(
      `${w.ig}/me/conversations?fields=id,messages{message,from}&access_token=${igToken}`,
    );
    assert.equal(conversations.data.length, 1);
    assert.deepEqual(conversations.data[0]?.messages.data.map((m) => m.message), ['An agent here', 'from the Page', 'Yes we do', 'Do you deliver?']);
    const byUser = await getJson<{ data: unknown[] }>(`${w.fb}/${w.pageId}/conversations?platform=instagram&user_id=${dm.senderId}&access_token=${w.pageToken}`);
    assert.equal(byUser.data.length, 1);
    const profile = await getJson<{ username: string }>(`${w.ig}/${dm.senderId}?fields=name,username,profile_pic&access_token=${igToken}`);
    assert.equal(profile.username, 'buyer');
  });

  test('a private reply to a comment is allowed once, without an open window', async () => {
    const { id } = (await control(w, 'meta/comments', { objectId: mediaId, message: 'Price?', from: { username: 'quiet.person' } })) as { id: string };
    const reply = await postJson(`${w.ig}/me/messages?access_token=${igToken}`, { recipient: { comment_id: id }, message: { text: 'Sent you the prices' } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const again = await postJson(`${w.ig}/me/messages?access_token=${igToken}`, { recipient: { comment_id: id }, message: { text: 'Again' } });
    assert.equal(again.status, 403);
  });

  test('insights: media metrics, breakdowns, deprecated metrics; account metrics and the 100-follower rule', async () => {
    const url = (path: string, query: string, token = igToken) => `${w.ig}/${path}/insights?${query}&access_token=${token}`;
    const media = await getJson<{ data: Array<{ name: string; period: string; values: Array<{ value: number }>; id: string }> }>(url(mediaId, 'metric=reach,likes,comments,views'));
    assert.deepEqual(media.data.map((m) => [m.name, m.period]), [['reach', 'lifetime'], ['likes', 'lifetime'], ['comments', 'lifetime'], ['views', 'lifetime']]);
    assert.equal(media.data[0]?.id, `${mediaId}/insights/reach/lifetime`);
    assert.deepEqual(await getJson(url(mediaId, 'metric=reach,likes,comments,views')), media, 'numbers are stable across reads');
    assert.equal((await getJson<{ error: { code: number } }>(url(mediaId, 'metric=impressions'))).error.code, 100);
    const breakdown = await getJson<{ data: Array<{ total_value: { breakdowns: Array<{ dimension_keys: string[] }> } }> }>(url(mediaId, 'metric=profile_activity&breakdown=action_type'));
    assert.deepEqual(breakdown.data[0]?.total_value.breakdowns[0]?.dimension_keys, ['action_type']);

    const reach = await getJson<{ data: Array<{ values: Array<{ value: number; end_time: string }> }> }>(url('me', 'metric=reach&period=day'));
    assert.ok((reach.data[0]?.values.length ?? 0) >= 2);
    const views = await getJson<{ error: { message: string } }>(url('me', 'metric=views&period=day'));
    assert.match(views.error.message, /metric_type=total_value/);
    const demo = await getJson<{ data: Array<{ total_value: { breakdowns: Array<{ results: Array<{ dimension_values: string[] }> }> } }> }>(
      url('me', 'metric=follower_demographics&period=lifetime&metric_type=total_value&breakdown=country&timeframe=this_month'),
    );
    assert.ok((demo.data[0]?.total_value.breakdowns[0]?.results.length ?? 0) > 0);
    const online = await getJson<{ data: Array<{ values: Array<{ value: Record<string, number> }> }> }>(url('me', 'metric=online_followers&period=lifetime'));
    assert.equal(Object.keys(online.data[0]?.values[0]?.value ?? {}).length, 24);
    await control(w, 'meta/followers', { accountId: w.igUserId, count: 99 });
    const small = await getJson<{ error: { code: number } }>(url('me', 'metric=follower_demographics&period=lifetime&metric_type=total_value&breakdown=age'));
    assert.equal(small.error.code, 10);
    assert.equal((await getJson<{ followers_count: number }>(`${w.ig}/me?fields=followers_count&access_token=${igToken}`)).followers_count, 99);
    await control(w, 'meta/followers', { accountId: w.igUserId, count: 1200 });
  });

  test('Facebook Login webhooks: the Page subscription delivers the linked account’s events to the Facebook app', async () => {
    const fbHook = await receiver(FB_SECRET);
    after(() => fbHook.close());
    await subscribeApp(w, FB_APP, FB_SECRET, 'instagram', ['comments'], fbHook.url);
    assert.deepEqual((await form(`${w.fb}/${w.pageId}/subscribed_apps`, { access_token: w.pageToken, subscribed_fields: 'feed,messages' })).body, { success: true });
    await control(w, 'meta/comments', { objectId: mediaId, message: 'Via Facebook Login' });
    await settled();
    assert.equal(fbHook.events.at(-1)?.object, 'instagram');
  });
});
