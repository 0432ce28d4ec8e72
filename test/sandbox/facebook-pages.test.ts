// Facebook Page publishing against the sandbox (platforms.md §3.1–3.2): feed posts, links,
// drafts and scheduled posts, the duplicate error, photos (published, unpublished,
// attached_media, photo stories), videos from file_url, Reels and video stories through
// rupload.facebook.com, edits, deletes, comments, and the Page token / task / permission rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setPageTasks } from '../../src/sandbox/meta/simulate.ts';
import { samples } from './helpers.ts';
import { control, FB_SCOPES, facebookLogin, form, getJson, metaWorld, type MetaWorld } from './facebook-helpers.ts';

describe('Facebook Pages publishing', () => {
  let w: MetaWorld;
  const feed = (params: Record<string, string>, token = w.pageToken) => form(`${w.fb}/${w.pageId}/feed`, { access_token: token, ...params });
  const read = <T = Record<string, unknown>>(id: string, fields: string) => getJson<T>(`${w.fb}/${id}?fields=${fields}&access_token=${w.pageToken}`);
  const err = (res: { body: { error?: { code: number; error_subcode?: number } } }) => res.body.error?.code;

  before(async () => {
    w = await metaWorld();
  });
  after(() => w.close());

  test('a text post answers {page}_{post}, reads back, is listed, edits and deletes', async () => {
    const res = await feed({ message: 'Hello from the bakery' });
    assert.equal(res.status, 200);
    const id = String(res.body.id);
    assert.match(id, new RegExp(`^${w.pageId}_\\d+$`));
    const post = await read(id, 'id,message,created_time,permalink_url,is_published,status_type,from');
    assert.equal(post.message, 'Hello from the bakery');
    assert.equal(post.is_published, true);
    assert.equal(post.status_type, 'mobile_status_update');
    assert.match(String(post.created_time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    const list = await getJson<{ data: Array<{ id: string }> }>(`${w.fb}/${w.pageId}/published_posts?access_token=${w.pageToken}`);
    assert.equal(list.data[0]?.id, id);
    assert.deepEqual((await form(`${w.fb}/${id}`, { access_token: w.pageToken, message: 'Edited' })).body, { success: true });
    assert.equal((await read(id, 'message')).message, 'Edited');
    assert.deepEqual(await (await fetch(`${w.fb}/${id}?access_token=${w.pageToken}`, { method: 'DELETE' })).json(), { success: true });
    const gone = await read<{ error: { code: number; error_subcode: number } }>(id, 'id');
    assert.deepEqual([gone.error.code, gone.error.error_subcode], [100, 33]);
  });

  test('the same message twice in a row is (#506) Duplicate status message; links are shares', async () => {
    assert.equal((await feed({ message: 'Same again' })).status, 200);
    const dup = await feed({ message: 'Same again' });
    assert.deepEqual([dup.body.error?.code, dup.body.error?.message], [506, '(#506) Duplicate status message']);
    const link = String((await feed({ message: 'Read this', link: 'https://example.com/story' })).body.id);
    assert.equal((await read(link, 'status_type')).status_type, 'shared_story');
    assert.equal(err(await feed({ link: 'not a url' })), 100);
    assert.equal(err(await feed({})), 100);
    assert.equal(err(await feed({ message: 'x'.repeat(63_207) })), 100);
  });

  test('drafts and scheduled posts: published=false, the 10-minute to 30-day window, published on time', async () => {
    const draft = String((await feed({ message: 'Draft', published: 'false' })).body.id);
    assert.equal((await read(draft, 'is_published')).is_published, false);
    const now = Math.floor(w.sb.state.clock.now() / 1000);
    assert.equal(err(await feed({ message: 'Too soon', published: 'false', scheduled_publish_time: String(now + 60) })), 100);
    assert.equal(err(await feed({ message: 'Too late', published: 'false', scheduled_publish_time: String(now + 31 * 86_400) })), 100);
    assert.equal(err(await feed({ message: 'Published and scheduled', scheduled_publish_time: String(now + 3600) })), 100);
    const scheduled = String((await feed({ message: 'Later', published: 'false', scheduled_publish_time: String(now + 3600) })).body.id);
    const pending = await getJson<{ data: Array<{ id: string; scheduled_publish_time: number }> }>(`${w.fb}/${w.pageId}/scheduled_posts?fields=id,scheduled_publish_time&access_token=${w.pageToken}`);
    assert.deepEqual(pending.data, [{ id: scheduled, scheduled_publish_time: now + 3600 }]);
    w.sb.state.clock.advance(3601_000);
    assert.equal((await read(scheduled, 'is_published')).is_published, true);
    assert.deepEqual((await form(`${w.fb}/${draft}`, { access_token: w.pageToken, is_published: 'true' })).body, { success: true });
    assert.equal((await read(draft, 'is_published')).is_published, true);
  });

  test('photos: published (id + post_id), unpublished + attached_media, photo stories; bad files are 324', async () => {
    const single = await form(`${w.fb}/${w.pageId}/photos`, { access_token: w.pageToken, url: `${w.files.url}/b.png`, caption: 'A PNG is fine on Pages' });
    assert.equal(single.status, 200, JSON.stringify(single.body));
    assert.match(String(single.body.post_id), new RegExp(`^${w.pageId}_`));
    const unpublished = async () => String((await form(`${w.fb}/${w.pageId}/photos`, { access_token: w.pageToken, url: `${w.files.url}/a.jpg`, published: 'false' })).body.id);
    const [p1, p2] = [await unpublished(), await unpublished()];
    const album = await form(`${w.fb}/${w.pageId}/feed`, { access_token: w.pageToken, message: 'Two photos', 'attached_media[0]': JSON.stringify({ media_fbid: p1 }), 'attached_media[1]': JSON.stringify({ media_fbid: p2 }) });
    assert.equal(album.status, 200, JSON.stringify(album.body));
    const post = await read<{ attachments: { data: Array<{ type: string; subattachments: { data: unknown[] } }> } }>(String(album.body.id), 'attachments');
    assert.equal(post.attachments.data[0]?.subattachments.data.length, 2);
    assert.equal(err(await form(`${w.fb}/${w.pageId}/feed`, { access_token: w.pageToken, message: 'again', 'attached_media[0]': JSON.stringify({ media_fbid: p1 }) })), 100);
    const story = await form(`${w.fb}/${w.pageId}/photo_stories`, { access_token: w.pageToken, photo_id: await unpublished() });
    assert.equal(story.body.success, true);
    assert.ok(story.body.post_id);
    assert.equal(err(await form(`${w.fb}/${w.pageId}/photos`, { access_token: w.pageToken, url: `${w.files.url}/page.html` })), 324);
    assert.equal(err(await form(`${w.fb}/${w.pageId}/photos`, { access_token: w.pageToken })), 324);
  });

  test('videos from file_url are fetched and processed; the post appears when the video is ready', async () => {
    const res = await form(`${w.fb}/${w.pageId}/videos`, { access_token: w.pageToken, file_url: `${w.files.url}/c.mp4`, title: 'Kneading', description: 'How we knead' });
    const id = String(res.body.id);
    await w.sb.state.idle();
    const processing = await read<{ status: { video_status: string; uploading_phase: { status: string; bytes_transfered: number } }; post_id: string }>(id, 'status,post_id');
    assert.equal(processing.status.video_status, 'processing');
    assert.equal(processing.status.uploading_phase.bytes_transfered, samples.mp4.length);
    assert.equal((await read(processing.post_id, 'is_published')).is_published, false);
    w.sb.state.clock.advance(10_000);
    assert.equal((await read<{ status: { video_status: string } }>(id, 'status')).status.video_status, 'ready');
    assert.equal((await read(processing.post_id, 'is_published')).is_published, true);
    const bad = String((await form(`${w.fb}/${w.pageId}/videos`, { access_token: w.pageToken, file_url: `${w.files.url}/a.jpg` })).body.id);
    await w.sb.state.idle();
    w.sb.state.clock.advance(10_000);
    assert.equal((await read<{ status: { video_status: string } }>(bad, 'status')).status.video_status, 'error');
  });

  test('Reels: start, binary upload to rupload with offset/file_size, finish → {success:true}, post_id on the video', async () => {
    const start = await form(`${w.fb}/${w.pageId}/video_reels`, { access_token: w.pageToken, upload_phase: 'start' });
    const { video_id: videoId, upload_url: uploadUrl } = start.body as { video_id: string; upload_url: string };
    assert.match(uploadUrl, /\/rupload\.facebook\.com\/video-upload\/v24\.0\/\d+$/);
    assert.equal(err(await form(`${w.fb}/${w.pageId}/video_reels`, { access_token: w.pageToken, upload_phase: 'finish', video_id: videoId })), 100);
    const upload = (offset: number, body: Buffer, token = w.pageToken) =>
      fetch(uploadUrl, { method: 'POST', headers: { authorization: `OAuth ${token}`, offset: String(offset), file_size: String(samples.mp4.length), 'content-type': 'application/octet-stream' }, body });
    const wrong = await upload(10, samples.mp4);
    assert.equal(((await wrong.json()) as { debug_info: { type: string } }).debug_info.type, 'OffsetInvalidError');
    assert.equal((await upload(0, samples.mp4, w.userToken)).status, 401);
    const half = Math.floor(samples.mp4.length / 2);
    assert.deepEqual(await (await upload(0, samples.mp4.subarray(0, half))).json(), { success: true });
    assert.deepEqual(await (await upload(half, samples.mp4.subarray(half))).json(), { success: true });
    const finish = await form(`${w.fb}/${w.pageId}/video_reels`, { access_token: w.pageToken, upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: 'Our first reel' });
    assert.deepEqual(finish.body, { success: true });
    w.sb.state.clock.advance(10_000);
    const video = await read<{ status: { video_status: string; publishing_phase: { publish_status: string } }; post_id: string }>(videoId, 'status,post_id');
    assert.equal(video.status.video_status, 'ready');
    assert.equal(video.status.publishing_phase.publish_status, 'published');
    assert.equal((await read(video.post_id, 'message')).message, 'Our first reel');
  });

  test('Reels by file_url header; at most facebookReels per 24 hours; video stories answer post_id', async () => {
    w.sb.state.updateSettings({ limits: { facebookReels: 1 } });
    w.sb.state.clock.advance(25 * 3600_000);
    const reel = async () => {
      const start = (await form(`${w.fb}/${w.pageId}/video_reels`, { access_token: w.pageToken, upload_phase: 'start' })).body as { video_id: string; upload_url: string };
      await fetch(start.upload_url, { method: 'POST', headers: { authorization: `OAuth ${w.pageToken}`, file_url: `${w.files.url}/c.mp4` } });
      await w.sb.state.idle();
      return form(`${w.fb}/${w.pageId}/video_reels`, { access_token: w.pageToken, upload_phase: 'finish', video_id: start.video_id, video_state: 'PUBLISHED' });
    };
    assert.deepEqual((await reel()).body, { success: true });
    assert.equal(err(await reel()), 100);
    w.sb.state.updateSettings({ limits: { facebookReels: 30 } });
    const start = (await form(`${w.fb}/${w.pageId}/video_stories`, { access_token: w.pageToken, upload_phase: 'start' })).body as { video_id: string; upload_url: string };
    await fetch(start.upload_url, { method: 'POST', headers: { authorization: `OAuth ${w.pageToken}`, file_url: `${w.files.url}/c.mp4` } });
    await w.sb.state.idle();
    const story = await form(`${w.fb}/${w.pageId}/video_stories`, { access_token: w.pageToken, upload_phase: 'finish', video_id: start.video_id });
    assert.equal(story.body.success, true);
    assert.match(String(story.body.post_id), new RegExp(`^${w.pageId}_`));
  });

  test('comments: people comment (control API), the Page replies, hides, lists with summary, deletes', async () => {
    const post = String((await feed({ message: 'Comment on me' })).body.id);
    const { id: commentId } = (await control(w, 'meta/comments', { objectId: post, message: 'How much?', from: { name: 'Dana W' } })) as { id: string };
    const reply = await form(`${w.fb}/${commentId}/comments`, { access_token: w.pageToken, message: '3 euros' });
    assert.equal(reply.status, 200);
    assert.deepEqual((await form(`${w.fb}/${commentId}`, { access_token: w.pageToken, is_hidden: 'true' })).body, { success: true });
    const list = await getJson<{ data: Array<{ id: string; message: string; from: { name: string } }>; summary: { total_count: number; order: string } }>(
      `${w.fb}/${post}/comments?filter=stream&summary=true&fields=id,message,from,is_hidden&access_token=${w.pageToken}`,
    );
    assert.equal(list.summary.total_count, 2);
    assert.deepEqual(list.data.map((c) => c.message), ['How much?', '3 euros']);
    const top = await getJson<{ data: unknown[] }>(`${w.fb}/${post}/comments?access_token=${w.pageToken}`);
    assert.equal(top.data.length, 1);
    assert.deepEqual(await (await fetch(`${w.fb}/${String(reply.body.id)}?access_token=${w.pageToken}`, { method: 'DELETE' })).json(), { success: true });
    assert.deepEqual((await form(`${w.fb}/${post}/likes`, { access_token: w.pageToken })).body, { success: true });
  });

  test("comments without pages_read_user_content: people's comments are left out of every list, without an error; the Page's own stay", async () => {
    const post = String((await feed({ message: 'Who can read this?' })).body.id);
    const { id: theirs } = (await control(w, 'meta/comments', { objectId: post, message: 'Is it vegan?', from: { name: 'Dana W' } })) as { id: string };
    const own = String((await form(`${w.fb}/${post}/comments`, { access_token: w.pageToken, message: 'Open every day' })).body.id);
    const ownReply = String((await form(`${w.fb}/${theirs}/comments`, { access_token: w.pageToken, message: 'Yes' })).body.id);
    const { id: theirReply } = (await control(w, 'meta/comments', { objectId: theirs, message: 'Thanks', from: { name: 'Dana W' } })) as { id: string };
    const { pages } = await facebookLogin(w.sb, FB_SCOPES.filter((s) => s !== 'pages_read_user_content'));
    const narrow = pages.find((p) => p.id === w.pageId)?.access_token ?? '';
    type Listed = { data: Array<{ id: string; comments?: { data: Array<{ id: string }> } }>; summary: { total_count: number } };
    const ids = (list: Listed) => list.data.map((c) => c.id);
    const stream = (token: string) => getJson<Listed>(`${w.fb}/${post}/comments?filter=stream&summary=true&access_token=${token}`);
    assert.deepEqual(ids(await stream(w.pageToken)), [theirs, own, ownReply, theirReply]);
    const without = await stream(narrow);
    assert.deepEqual([ids(without), without.summary.total_count], [[own, ownReply], 2]);
    const top = await getJson<Listed>(`${w.fb}/${post}/comments?filter=toplevel&fields=id,comments{id}&access_token=${narrow}`);
    assert.deepEqual(top.data.map((c) => [c.id, c.comments?.data.map((r) => r.id)]), [[own, []]]);
    assert.deepEqual(ids(await getJson<Listed>(`${w.fb}/${theirs}/comments?access_token=${narrow}`)), [ownReply]);
  });

  test('rules: a user token is refused for writes (190), missing tasks 200, missing permission 200, injected rate limit 32', async () => {
    const user = await feed({ message: 'as the user' }, w.userToken);
    assert.deepEqual([user.body.error?.code, user.body.error?.message], [190, '(#190) This method must be called with a Page Access Token']);
    setPageTasks(w.sb.state, w.pageId, ['ANALYZE', 'MODERATE']);
    assert.equal(err(await feed({ message: 'no CREATE_CONTENT' })), 200);
    setPageTasks(w.sb.state, w.pageId, ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE']);
    const { pages } = await facebookLogin(w.sb, ['pages_show_list', 'pages_read_engagement']);
    const readOnly = pages[0]?.access_token ?? '';
    const denied = await form(`${w.fb}/${pages[0]?.id ?? ''}/feed`, { access_token: readOnly, message: 'nope' });
    assert.equal(denied.body.error?.code, 200);
    assert.match(denied.body.error?.message ?? '', /pages_manage_posts/);
    await control(w, 'faults', { host: 'graph.facebook.com', path: '/*/feed', method: 'POST', kind: 'error', code: 32, message: '(#32) Page request limit reached' });
    const limited = await feed({ message: 'rate limited' });
    assert.deepEqual([limited.body.error?.code, limited.body.error?.message], [32, '(#32) Page request limit reached']);
    assert.equal((await feed({ message: 'rate limit over' })).status, 200);
  });
});
