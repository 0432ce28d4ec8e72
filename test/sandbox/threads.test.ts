// Threads against the sandbox (platforms.md §4): OAuth, containers with real media downloads,
// asynchronous status on the sandbox clock, publishing, carousels, replies, the 24-hour quota,
// reading and deleting.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, fileServer, graphErrorOf, sandbox, samples, type FileServer } from './helpers.ts';

const APP = '771234567890';
const SECRET = 'th-secret';
const REDIRECT = 'https://app.example/callback/threads';
const SCOPES = 'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_delete';

describe('Threads', () => {
  let sb: RunningSandbox;
  let files: FileServer;
  let graph: string;
  let token: string;
  let userId: string;

  const post = async (path: string, params: Record<string, string>) =>
    fetch(`${graph}${path}`, { method: 'POST', body: new URLSearchParams({ access_token: token, ...params }) });
  const create = async (params: Record<string, string>) => {
    const res = await post('/me/threads', params);
    const body = (await res.json()) as { id?: string; error?: { code: number; message: string } };
    return { status: res.status, ...body };
  };
  const status = async (id: string) =>
    (await (await fetch(`${graph}/${id}?fields=id,status,error_message&access_token=${token}`)).json()) as { status: string; error_message?: string };
  const publish = async (id: string) => {
    const res = await post('/me/threads_publish', { creation_id: id });
    return { status: res.status, body: (await res.json()) as { id?: string; error?: { code: number; error_subcode?: number; message: string } } };
  };
  const ready = async (id: string) => {
    await sb.state.idle();
    sb.state.clock.advance(5_000);
    return status(id);
  };

  before(async () => {
    sb = await sandbox();
    files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.png': { body: samples.png }, '/c.mp4': { body: samples.mp4 }, '/page.html': { body: samples.html, type: 'image/jpeg' }, '/d.gif': { body: samples.gif } });
    graph = `${sb.url}/graph.threads.net/v1.0`;
    const location = await consent(`${sb.url}/threads.net/oauth/authorize?client_id=${APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${SCOPES}&response_type=code&state=t`);
    assert.equal(location.hash, '#_');
    const res = await fetch(`${sb.url}/graph.threads.net/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: APP, client_secret: SECRET, code: location.searchParams.get('code') ?? '', grant_type: 'authorization_code', redirect_uri: REDIRECT }),
    });
    const text = await res.text();
    userId = /"user_id":(\d+)/.exec(text)?.[1] ?? '';
    const short = JSON.parse(text) as { access_token: string };
    const long = (await (await fetch(`${sb.url}/graph.threads.net/access_token?grant_type=th_exchange_token&client_secret=${SECRET}&access_token=${short.access_token}`)).json()) as {
      access_token: string;
      expires_in: number;
    };
    assert.ok(long.expires_in >= 5_184_000 - 5);
    token = long.access_token;
  });
  after(async () => {
    await sb.close();
    await files.close();
  });

  test('/me answers the user, with the id the token exchange gave', async () => {
    const me = (await (await fetch(`${graph}/me?fields=id,username,threads_biography&access_token=${token}`)).json()) as { id: string; username: string };
    assert.equal(me.id, userId);
    assert.equal(me.username, 'sandbox.threads');
  });

  test('a text container is FINISHED, publishes, and reads back', async () => {
    const container = await create({ media_type: 'TEXT', text: 'Hello https://example.com/x', topic_tag: 'sandbox', reply_control: 'mentioned_only' });
    assert.equal(container.status, 200);
    assert.equal((await status(container.id ?? '')).status, 'FINISHED');
    const published = await publish(container.id ?? '');
    assert.equal(published.status, 200);
    const media = (await (await fetch(`${graph}/${published.body.id ?? ''}?fields=id,text,media_type,permalink,topic_tag,reply_audience,link_attachment_url,owner&access_token=${token}`)).json()) as Record<string, unknown>;
    assert.equal(media.text, 'Hello https://example.com/x');
    assert.equal(media.media_type, 'TEXT_POST');
    assert.equal(media.topic_tag, 'sandbox');
    assert.equal(media.reply_audience, 'MENTIONED_ONLY');
    assert.equal(media.link_attachment_url, 'https://example.com/x');
    assert.match(String(media.permalink), /threads\.net\/@sandbox\.threads\/post\//);
    assert.equal((await status(container.id ?? '')).status, 'PUBLISHED');
    assert.match((await publish(container.id ?? '')).body.error?.message ?? '', /already been published/);
  });

  test('text over 500 characters, bad topic tags and unknown media types are error 100', async () => {
    assert.equal((await create({ media_type: 'TEXT', text: 'x'.repeat(501) })).error?.code, 100);
    assert.equal((await create({ media_type: 'TEXT', text: 'é'.repeat(500) })).status, 200);
    assert.equal((await create({ media_type: 'TEXT', text: 'hi', topic_tag: 'a.b' })).error?.code, 100);
    assert.equal((await create({ media_type: 'AUDIO', text: 'hi' })).error?.code, 100);
    assert.equal((await create({ media_type: 'IMAGE' })).error?.code, 100);
    assert.equal((await create({ media_type: 'IMAGE', image_url: `${files.url}/a.jpg`, link_attachment: 'https://x.example' })).error?.code, 100);
  });

  test('an image container downloads the file for real and is IN_PROGRESS until processing is over', async () => {
    const before = files.hits.get('/a.jpg') ?? 0;
    const container = await create({ media_type: 'IMAGE', image_url: `${files.url}/a.jpg`, text: 'pic', alt_text: 'a test image' });
    assert.equal((await status(container.id ?? '')).status, 'IN_PROGRESS');
    const early = await publish(container.id ?? '');
    assert.deepEqual([early.body.error?.code, early.body.error?.error_subcode], [9007, 2207027]);
    assert.equal((await ready(container.id ?? '')).status, 'FINISHED');
    assert.equal((files.hits.get('/a.jpg') ?? 0) - before, 1);
    const published = await publish(container.id ?? '');
    assert.equal(published.status, 200);
    const media = (await (await fetch(`${graph}/${published.body.id ?? ''}?fields=media_type,media_url,alt_text&access_token=${token}`)).json()) as Record<string, unknown>;
    assert.deepEqual(media, { media_type: 'IMAGE', media_url: `${files.url}/a.jpg`, alt_text: 'a test image', id: published.body.id });
  });

  test('unreachable URLs and wrong types end in ERROR, judged by the bytes', async () => {
    const missingVideo = await create({ media_type: 'VIDEO', video_url: `${files.url}/missing.mp4` });
    assert.deepEqual(await ready(missingVideo.id ?? ''), { id: missingVideo.id, status: 'ERROR', error_message: 'FAILED_DOWNLOADING_VIDEO' });
    const htmlAsJpeg = await create({ media_type: 'IMAGE', image_url: `${files.url}/page.html` });
    assert.equal((await ready(htmlAsJpeg.id ?? '')).status, 'ERROR');
    const gif = await create({ media_type: 'IMAGE', image_url: `${files.url}/d.gif` });
    assert.equal((await ready(gif.id ?? '')).status, 'ERROR');
    const imageAsVideo = await create({ media_type: 'VIDEO', video_url: `${files.url}/a.jpg` });
    assert.equal((await ready(imageAsVideo.id ?? '')).error_message, 'FAILED_PROCESSING_VIDEO');
    const refused = await publish(htmlAsJpeg.id ?? '');
    assert.equal(refused.status, 400);
  });

  test('carousels take 2 to 20 carousel items and publish as one post with children', async () => {
    const item = async (params: Record<string, string>) => (await create({ ...params, is_carousel_item: 'true' })).id ?? '';
    const a = await item({ media_type: 'IMAGE', image_url: `${files.url}/a.jpg` });
    const b = await item({ media_type: 'IMAGE', image_url: `${files.url}/b.png` });
    const c = await item({ media_type: 'VIDEO', video_url: `${files.url}/c.mp4` });
    assert.equal((await create({ media_type: 'CAROUSEL', children: a })).error?.code, 100);
    const notItem = (await create({ media_type: 'TEXT', text: 'x' })).id ?? '';
    assert.equal((await create({ media_type: 'CAROUSEL', children: `${a},${notItem}` })).error?.code, 100);
    const many = await Promise.all(Array.from({ length: 21 }, () => item({ media_type: 'IMAGE', image_url: `${files.url}/a.jpg` })));
    assert.equal((await create({ media_type: 'CAROUSEL', children: many.join(',') })).error?.code, 100);
    assert.equal((await create({ media_type: 'CAROUSEL', children: many.slice(0, 20).join(',') })).status, 200);

    const carousel = await create({ media_type: 'CAROUSEL', children: [a, b, c].join(','), text: 'three' });
    assert.equal((await status(carousel.id ?? '')).status, 'IN_PROGRESS');
    assert.equal((await ready(carousel.id ?? '')).status, 'FINISHED');
    assert.match((await publish(a)).body.error?.message ?? '', /carousel item/);
    const published = await publish(carousel.id ?? '');
    const media = (await (await fetch(`${graph}/${published.body.id ?? ''}?fields=media_type,children&access_token=${token}`)).json()) as {
      media_type: string;
      children: { data: Array<{ id: string }> };
    };
    assert.equal(media.media_type, 'CAROUSEL_ALBUM');
    assert.equal(media.children.data.length, 3);
  });

  test('replies publish against the reply quota and are listed under the post', async () => {
    const root = (await publish((await create({ media_type: 'TEXT', text: 'root' })).id ?? '')).body.id ?? '';
    const reply = await create({ media_type: 'TEXT', text: 'a reply', reply_to_id: root });
    const replyId = (await publish(reply.id ?? '')).body.id ?? '';
    const listed = (await (await fetch(`${graph}/${root}/replies?fields=id,text,is_reply,root_post&access_token=${token}`)).json()) as { data: Array<Record<string, unknown>> };
    assert.deepEqual(listed.data, [{ id: replyId, text: 'a reply', is_reply: true, root_post: { id: root } }]);
    const hide = (await (await post(`/${replyId}/manage_reply`, { hide: 'true' })).json()) as { success: boolean };
    assert.equal(hide.success, true);
    const limit = (await (await fetch(`${graph}/me/threads_publishing_limit?fields=quota_usage,config,reply_quota_usage,reply_config&access_token=${token}`)).json()) as {
      data: Array<{ quota_usage: number; config: { quota_total: number; quota_duration: number }; reply_quota_usage: number }>;
    };
    assert.ok((limit.data[0]?.quota_usage ?? 0) >= 3);
    assert.deepEqual(limit.data[0]?.config, { quota_total: 250, quota_duration: 86_400 });
    assert.equal(limit.data[0]?.reply_quota_usage, 1);
    assert.equal((await create({ media_type: 'TEXT', text: 'x', reply_to_id: '999' })).error?.code, 100);
  });

  test('the 24-hour publishing limit is enforced and frees up as the window moves', async () => {
    sb.state.updateSettings({ limits: { threadsPosts: 3 } });
    sb.state.clock.advance(25 * 3600_000);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await create({ media_type: 'TEXT', text: `post ${i}` })).id ?? '');
    for (const id of ids.slice(0, 3)) assert.equal((await publish(id)).status, 200);
    const refused = await publish(ids[3] ?? '');
    assert.deepEqual([refused.body.error?.code, refused.body.error?.error_subcode], [9, 2207042]);
    sb.state.clock.advance(23 * 3600_000);
    // The containers are still under 24 hours old, and the first posts have left the window.
    sb.state.clock.advance(1 * 3600_000 + 1000);
    assert.equal((await publish(ids[3] ?? '')).status, 400, 'a container over 24 hours old has expired');
    const fresh = (await create({ media_type: 'TEXT', text: 'fresh' })).id ?? '';
    assert.equal((await publish(fresh)).status, 200);
    sb.state.updateSettings({ limits: { threadsPosts: 250 } });
  });

  test('delete needs threads_delete, answers deleted_id, and the post is gone', async () => {
    const id = (await publish((await create({ media_type: 'TEXT', text: 'bye' })).id ?? '')).body.id ?? '';
    const res = await fetch(`${graph}/${id}?access_token=${token}`, { method: 'DELETE' });
    assert.deepEqual(await res.json(), { success: true, deleted_id: id });
    const gone = await graphErrorOf(await fetch(`${graph}/${id}?access_token=${token}`));
    assert.deepEqual([gone.code, gone.error_subcode], [100, 33]);
  });

  test('an expired token is 190/463', async () => {
    sb.state.expireToken(token);
    const error = await graphErrorOf(await fetch(`${graph}/me?access_token=${token}`));
    assert.deepEqual([error.code, error.error_subcode], [190, 463]);
  });
});
