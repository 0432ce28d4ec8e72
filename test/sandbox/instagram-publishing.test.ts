// Instagram publishing against the sandbox (platforms.md §2.3–2.5, §12) on both hosts: image
// containers fetched for real (JPEG only), reels and stories processed in the background,
// carousels, the container lifecycle on the sandbox clock, media_publish, the 24-hour limit,
// media reads and the comments toggle, and the §2.4 error codes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setPageTasks } from '../../src/sandbox/meta/simulate.ts';
import { form, getJson, instagramLogin, metaWorld, type MetaWorld } from './facebook-helpers.ts';

describe('Instagram publishing', () => {
  let w: MetaWorld;
  let igToken: string;
  const hosts = () => [
    { name: 'graph.facebook.com (Facebook Login)', base: w.fb, token: w.userToken },
    { name: 'graph.instagram.com (Instagram Login)', base: w.ig, token: igToken },
  ];
  const create = (base: string, token: string, params: Record<string, string>) => form(`${base}/${w.igUserId}/media`, { access_token: token, ...params });
  const publish = (base: string, token: string, id: string) => form(`${base}/${w.igUserId}/media_publish`, { access_token: token, creation_id: id });
  const status = (base: string, token: string, id: string) => getJson<{ status_code: string; status: string }>(`${base}/${id}?fields=status_code,status&access_token=${token}`);
  const settle = async (ms = 10_000) => {
    await w.sb.state.idle();
    w.sb.state.clock.advance(ms);
  };
  const err = (res: { body: { error?: { code: number; error_subcode?: number } } }) => [res.body.error?.code, res.body.error?.error_subcode];

  before(async () => {
    w = await metaWorld();
    const ig = await instagramLogin(w.sb);
    igToken = ig.token;
    assert.equal(ig.userId, w.igUserId, 'Instagram Login reaches the same professional account');
  });
  after(() => w.close());

  test('an image container on each host: IN_PROGRESS, 9007 if published early, FINISHED, published, readable', async () => {
    for (const { base, token } of hosts()) {
      const container = await create(base, token, { image_url: `${w.files.url}/a.jpg`, caption: 'Fresh bread #bakery @friend', alt_text: 'A loaf', user_tags: JSON.stringify([{ username: 'friend', x: 0.5, y: 0.4 }]), location_id: '1234567' });
      assert.equal(container.status, 200, JSON.stringify(container.body));
      const id = String(container.body.id);
      assert.equal((await status(base, token, id)).status_code, 'IN_PROGRESS');
      assert.deepEqual(err(await publish(base, token, id)), [9007, 2207027]);
      await settle();
      assert.deepEqual(await status(base, token, id), { status_code: 'FINISHED', status: 'Finished: Media has been uploaded and it is ready to be published.', id });
      const published = await publish(base, token, id);
      assert.equal(published.status, 200);
      const media = await getJson<Record<string, unknown>>(`${base}/${String(published.body.id)}?fields=id,caption,media_type,media_product_type,media_url,permalink,username,comments_count,is_comment_enabled,alt_text&access_token=${token}`);
      assert.equal(media.caption, 'Fresh bread #bakery @friend');
      assert.equal(media.media_type, 'IMAGE');
      assert.equal(media.media_product_type, 'FEED');
      assert.equal(media.media_url, `${w.files.url}/a.jpg`);
      assert.equal(media.username, 'sandbox.bakery');
      assert.match(String(media.permalink), /^https:\/\/www\.instagram\.com\/p\//);
      assert.equal((await status(base, token, id)).status_code, 'PUBLISHED');
    }
    const list = await getJson<{ data: Array<{ id: string }> }>(`${w.ig}/me/media?access_token=${igToken}`);
    assert.equal(list.data.length, 2);
  });

  test('images are JPEG only, fetched at creation: PNG 36001, HTML or 404 9004/2207052', async () => {
    assert.deepEqual(err(await create(w.fb, w.userToken, { image_url: `${w.files.url}/b.png` })), [36001, 2207005]);
    assert.deepEqual(err(await create(w.fb, w.userToken, { image_url: `${w.files.url}/d.gif` })), [36001, 2207005]);
    const html = await create(w.ig, igToken, { image_url: `${w.files.url}/page.html` });
    assert.deepEqual(err(html), [9004, 2207052]);
    assert.equal(html.status, 400);
    assert.equal(html.body.error?.message, 'Only photo or video can be accepted as media type.');
    assert.deepEqual(err(await create(w.ig, igToken, { image_url: `${w.files.url}/missing.jpg` })), [9004, 2207052]);
  });

  test('caption limits: 2200 characters, 30 hashtags (36004/2207010); tags and collaborators', async () => {
    const jpg = `${w.files.url}/a.jpg`;
    assert.deepEqual(err(await create(w.fb, w.userToken, { image_url: jpg, caption: 'x'.repeat(2201) })), [36004, 2207010]);
    assert.equal((await create(w.fb, w.userToken, { image_url: jpg, caption: 'é'.repeat(2200) })).status, 200);
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `#t${i}`).join(' ');
    assert.deepEqual(err(await create(w.ig, igToken, { image_url: jpg, caption: tags(31) })), [36004, 2207010]);
    assert.equal((await create(w.ig, igToken, { image_url: jpg, caption: tags(30) })).status, 200);
    assert.equal((await create(w.ig, igToken, { image_url: jpg, collaborators: JSON.stringify(['a', 'b', 'c', 'd']) })).body.error?.code, 100);
    assert.equal((await create(w.ig, igToken, { image_url: jpg, user_tags: JSON.stringify([{ username: 'a', x: 1.5, y: 0.2 }]) })).body.error?.code, 100);
    const many = JSON.stringify(Array.from({ length: 21 }, (_, i) => ({ username: `u${i}`, x: 0.1, y: 0.1 })));
    assert.deepEqual(err(await create(w.ig, igToken, { image_url: jpg, user_tags: many })), [100, 2207040]);
    assert.equal((await create(w.ig, igToken, { image_url: jpg, location_id: 'paris' })).body.error?.code, 100);
  });

  test('media types: VIDEO alone is refused (use REELS), unknown types 2207023', async () => {
    assert.deepEqual(err(await create(w.fb, w.userToken, { media_type: 'VIDEO', video_url: `${w.files.url}/c.mp4` })), [100, 2207023]);
    assert.deepEqual(err(await create(w.fb, w.userToken, { media_type: 'AUDIO', video_url: `${w.files.url}/c.mp4` })), [100, 2207023]);
    assert.equal((await create(w.fb, w.userToken, { media_type: 'REELS' })).body.error?.code, 100);
    assert.equal((await create(w.fb, w.userToken, { image_url: `${w.files.url}/a.jpg`, share_to_feed: 'true' })).body.error?.code, 100);
  });

  test('reels are processed in the background; a non-video ends in ERROR with its subcode', async () => {
    const reel = await create(w.ig, igToken, {
      media_type: 'REELS',
      video_url: `${w.files.url}/c.mp4`,
      caption: 'A reel',
      share_to_feed: 'false',
      thumb_offset: '1500',
      audio_name: 'Oven sounds',
      trial_params: JSON.stringify({ graduation_strategy: 'MANUAL' }),
    });
    assert.equal(reel.status, 200, JSON.stringify(reel.body));
    const id = String(reel.body.id);
    assert.equal((await status(w.ig, igToken, id)).status_code, 'IN_PROGRESS');
    await settle();
    assert.equal((await status(w.ig, igToken, id)).status_code, 'FINISHED');
    const media = await getJson<Record<string, unknown>>(`${w.ig}/${String((await publish(w.ig, igToken, id)).body.id)}?fields=media_type,media_product_type,thumbnail_url&access_token=${igToken}`);
    assert.deepEqual([media.media_type, media.media_product_type], ['VIDEO', 'REELS']);
    assert.ok(media.thumbnail_url);

    const bad = String((await create(w.fb, w.userToken, { media_type: 'REELS', video_url: `${w.files.url}/a.jpg` })).body.id);
    const missing = String((await create(w.fb, w.userToken, { media_type: 'REELS', video_url: `${w.files.url}/gone.mp4` })).body.id);
    await settle();
    assert.deepEqual(await status(w.fb, w.userToken, bad), { status_code: 'ERROR', status: 'Error: Media upload has failed with error code 2207026', id: bad });
    assert.equal((await status(w.fb, w.userToken, missing)).status, 'Error: Media upload has failed with error code 2207052');
    assert.deepEqual(err(await publish(w.fb, w.userToken, bad)), [352, 2207026]);
    assert.equal((await create(w.fb, w.userToken, { media_type: 'REELS', video_url: `${w.files.url}/c.mp4`, trial_params: '{"graduation_strategy":"SOMETIMES"}' })).body.error?.code, 100);
  });

  test('stories: image or video, listed under /stories for 24 hours, not under /media', async () => {
    const story = String((await create(w.fb, w.userToken, { media_type: 'STORIES', image_url: `${w.files.url}/a.jpg` })).body.id);
    assert.equal((await create(w.fb, w.userToken, { media_type: 'STORIES', image_url: `${w.files.url}/a.jpg`, caption: 'no' })).body.error?.code, 100);
    await settle();
    const mediaId = String((await publish(w.fb, w.userToken, story)).body.id);
    const stories = await getJson<{ data: Array<{ id: string; media_product_type: string }> }>(`${w.fb}/${w.igUserId}/stories?fields=id,media_product_type&access_token=${w.userToken}`);
    assert.deepEqual(stories.data, [{ id: mediaId, media_product_type: 'STORY' }]);
    const media = await getJson<{ data: Array<{ id: string }> }>(`${w.fb}/${w.igUserId}/media?access_token=${w.userToken}`);
    assert.ok(!media.data.some((m) => m.id === mediaId));
  });

  test('carousels: 2 to 10 items (2207028), children readable, items not publishable alone', async () => {
    const item = async (params: Record<string, string>) => String((await create(w.fb, w.userToken, { ...params, is_carousel_item: 'true' })).body.id);
    const a = await item({ image_url: `${w.files.url}/a.jpg` });
    const b = await item({ media_type: 'VIDEO', video_url: `${w.files.url}/c.mp4` });
    assert.deepEqual(err(await create(w.fb, w.userToken, { media_type: 'CAROUSEL', children: a })), [100, 2207028]);
    const eleven = await Promise.all(Array.from({ length: 11 }, () => item({ image_url: `${w.files.url}/a.jpg` })));
    assert.deepEqual(err(await create(w.fb, w.userToken, { media_type: 'CAROUSEL', children: eleven.join(',') })), [100, 2207028]);
    assert.equal((await create(w.fb, w.userToken, { image_url: `${w.files.url}/a.jpg`, is_carousel_item: 'true', caption: 'no' })).body.error?.code, 100);
    const carousel = String((await create(w.fb, w.userToken, { media_type: 'CAROUSEL', children: JSON.stringify([a, b]), caption: 'Two' })).body.id);
    assert.equal((await status(w.fb, w.userToken, carousel)).status_code, 'IN_PROGRESS');
    await settle();
    assert.equal((await publish(w.fb, w.userToken, a)).body.error?.code, 100);
    const published = String((await publish(w.fb, w.userToken, carousel)).body.id);
    const media = await getJson<{ media_type: string; children: { data: Array<{ id: string }> } }>(`${w.fb}/${published}?fields=media_type,children&access_token=${w.userToken}`);
    assert.equal(media.media_type, 'CAROUSEL_ALBUM');
    assert.equal(media.children.data.length, 2);
    const children = await getJson<{ data: Array<{ media_type: string }> }>(`${w.fb}/${published}/children?fields=media_type&access_token=${w.userToken}`);
    assert.deepEqual(children.data.map((c) => c.media_type), ['IMAGE', 'VIDEO']);
  });

  test('a container expires after 24 hours: EXPIRED, then 24/2207008', async () => {
    const id = String((await create(w.ig, igToken, { image_url: `${w.files.url}/a.jpg` })).body.id);
    await settle(24 * 3600_000 + 1000);
    assert.equal((await status(w.ig, igToken, id)).status_code, 'EXPIRED');
    assert.deepEqual(err(await publish(w.ig, igToken, id)), [24, 2207008]);
    assert.deepEqual(err(await publish(w.ig, igToken, '17000000000000000')), [24, 2207006]);
  });

  test('content_publishing_limit reports usage; past quota_total media_publish is 9/2207042', async () => {
    w.sb.state.clock.advance(25 * 3600_000);
    w.sb.state.updateSettings({ limits: { instagramPosts: 2 } });
    const limit = () => getJson<{ data: Array<{ quota_usage: number; config: { quota_total: number; quota_duration: number } }> }>(`${w.ig}/me/content_publishing_limit?fields=quota_usage,config&access_token=${igToken}`);
    assert.deepEqual((await limit()).data, [{ quota_usage: 0, config: { quota_total: 2, quota_duration: 86_400 } }]);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(String((await create(w.ig, igToken, { image_url: `${w.files.url}/a.jpg`, caption: `n${i}` })).body.id));
    await settle();
    for (const id of ids.slice(0, 2)) assert.equal((await publish(w.ig, igToken, id)).status, 200);
    assert.deepEqual(err(await publish(w.ig, igToken, ids[2] ?? '')), [9, 2207042]);
    assert.equal((await limit()).data[0]?.quota_usage, 2);
    w.sb.state.updateSettings({ limits: { instagramPosts: 100 } });
  });

  test('comment_enabled toggles; captions cannot be edited and media cannot be deleted', async () => {
    const id = String((await create(w.fb, w.userToken, { image_url: `${w.files.url}/a.jpg` })).body.id);
    await settle();
    const media = String((await publish(w.fb, w.userToken, id)).body.id);
    assert.deepEqual((await form(`${w.fb}/${media}`, { access_token: w.userToken, comment_enabled: 'false' })).body, { success: true });
    const read = await getJson<{ is_comment_enabled: boolean }>(`${w.fb}/${media}?fields=is_comment_enabled&access_token=${w.userToken}`);
    assert.equal(read.is_comment_enabled, false);
    assert.equal((await form(`${w.fb}/${media}`, { access_token: w.userToken, caption: 'edited' })).body.error?.code, 100);
    const del = await (await fetch(`${w.fb}/${media}?access_token=${w.userToken}`, { method: 'DELETE' })).json() as { error: { code: number; error_subcode: number } };
    assert.deepEqual([del.error.code, del.error.error_subcode], [100, 33]);
  });

  test('permissions and tokens: missing instagram_content_publish is code 10; expired token 190/463', async () => {
    const { token } = await instagramLogin(w.sb, ['instagram_business_basic']);
    const denied = await create(w.ig, token, { image_url: `${w.files.url}/a.jpg` });
    assert.equal(denied.body.error?.code, 10);
    assert.equal(denied.status, 403);
    assert.equal((await getJson<{ id: string }>(`${w.ig}/me?access_token=${token}`)).id, w.igUserId);
    w.sb.state.expireToken(token);
    assert.deepEqual(err(await create(w.ig, token, { image_url: `${w.files.url}/a.jpg` })), [190, 463]);
    setPageTasks(w.sb.state, w.pageId, ['ANALYZE']);
    assert.equal((await create(w.fb, w.userToken, { image_url: `${w.files.url}/a.jpg` })).body.error?.code, 200);
    setPageTasks(w.sb.state, w.pageId, ['MANAGE']);
    assert.equal((await create(w.fb, w.userToken, { image_url: `${w.files.url}/a.jpg` })).status, 200);
  });
});
