// Instagram delivery against the sandbox over HTTP, on both stores and both login flavours:
// images, Reels with their options, stories, carousels, first comment and comments turned off
// (read from the sandbox's journal and state), a container ending in ERROR as a permanent
// failure, media of the wrong type refused before any platform call, and a container flow that
// fails transiently after its container was saved, then publishes exactly once on retry.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Clock } from '../src/lib/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addMetaAccount, quickMetaProcessing } from './posts-meta-support.ts';
import { createPost, getPost, settled, startPostsApp, type PostsApp } from './posts-support.ts';

class ShiftClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

type Form = Record<string, string>;
/** A PNG file-type recognises (signature and IHDR chunk). */
const PNG = Buffer.concat([samples.png.subarray(0, 8), Buffer.from([0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(17, 1), Buffer.alloc(200, 2)]);
const without = (body: unknown, ...keys: string[]) => Object.fromEntries(Object.entries(body as Form).filter(([k]) => !keys.includes(k)));

/** Answers the service's ranged media check with an MP4, and the platform's own download with 404. */
async function vanishingVideo(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.headers.range) res.writeHead(206, { 'content-type': 'video/mp4' }).end(samples.mp4);
    else res.writeHead(404).end('gone');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}/v.mp4`, close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) };
}

for (const dialect of DIALECTS) {
  describe(`posts to instagram [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ShiftClock();
    const media = (path: string) => `${files.url}${path}`;

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      quickMetaProcessing(t);
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.jpg': { body: samples.jpeg }, '/c.mp4': { body: samples.mp4 }, '/cover.jpg': { body: samples.jpeg }, '/p.jpg': { body: PNG }, '/still': { body: samples.jpeg } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const calls = (host: string, after: number, user?: string) => t.sandbox.journal.list({ host, after }).filter((e) => !user || e.path.includes(`/${user}`));
    const publishNow = async (platforms: unknown[], content = 'Fresh bread #bakery') => {
      const res = await createPost(t, key, { content, publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.post.id;
    };

    test('an image with caption, alt text, user tags, location and collaborators; first comment; comments off (Facebook Login)', async () => {
      const acc = await addMetaAccount(t, org, 'instagram');
      const start = mark();
      const id = await publishNow([{ accountId: acc.id, platform: 'instagram', platformSpecificData: {
        mediaUrl: media('/a.jpg'), altText: 'A loaf', userTags: [{ username: 'friend', x: 0.5, y: 0.4 }], locationId: '1234567', collaborators: ['baker.two'], firstComment: 'Order at the link', commentsEnabled: false,
      } }]);
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const target = post.targets[0];
      const entries = calls('graph.facebook.com', start);
      const creates = entries.filter((e) => e.method === 'POST' && e.path.endsWith(`/${acc.platformUserId}/media`));
      assert.deepEqual(creates.map((e) => e.body), [{
        image_url: media('/a.jpg'), caption: 'Fresh bread #bakery', collaborators: '["baker.two"]', location_id: '1234567', alt_text: 'A loaf', user_tags: '[{"username":"friend","x":0.5,"y":0.4}]',
      }]);
      const publishes = entries.filter((e) => e.path.endsWith('/media_publish'));
      assert.equal(publishes.length, 1);
      const mediaId = target?.platformPostId ?? '';
      assert.ok(t.sandbox.meta.igMedia.get(mediaId), 'the media id is the published media');
      assert.ok((target?.url ?? '').startsWith(`${t.url}/sandbox/www.instagram.com/p/`), target?.url ?? 'no url');
      const comment = entries.find((e) => e.method === 'POST' && e.path.endsWith(`/${mediaId}/comments`));
      assert.deepEqual(comment?.body, { message: 'Order at the link' });
      const toggle = entries.findIndex((e) => e.method === 'POST' && e.path.endsWith(`/${mediaId}`));
      assert.deepEqual(entries[toggle]?.body, { comment_enabled: 'false' });
      assert.ok(comment && toggle > entries.indexOf(comment), 'comments are turned off after the first comment');
      assert.equal(t.sandbox.meta.igMedia.get(mediaId)?.commentEnabled, false);
      assert.equal(calls('graph.instagram.com', start).length, 0, 'Facebook Login accounts use graph.facebook.com');
      assert.equal(target?.attempts, 1);
    });

    test('an Instagram Login account publishes through graph.instagram.com', async () => {
      const acc = await addMetaAccount(t, org, 'instagram', { login: 'instagram' });
      const start = mark();
      const post = await settled(t, key, await publishNow([{ accountId: acc.id, platformSpecificData: { mediaUrl: media('/b.jpg'), firstComment: 'hi' } }], 'Via Instagram Login'));
      assert.equal(post.status, 'published', JSON.stringify(post));
      const entries = calls('graph.instagram.com', start);
      assert.deepEqual(entries.filter((e) => e.method === 'POST').map((e) => e.path.replace(/^\/v[\d.]+/, '').replace(/\d{10,}/g, 'ID')), ['/ID/media', '/ID/media_publish', '/ID/comments']);
      assert.equal(entries.find((e) => e.path.endsWith('/media'))?.headers.authorization?.startsWith('Bearer'), true);
      assert.equal(calls('graph.facebook.com', start, acc.platformUserId).length, 0);
    });

    test('Reels with share_to_feed, thumb_offset, cover_url, audio_name and trial_params; stories; a carousel with alt texts and tags per item', async () => {
      const start = mark();
      const [reel, story, videoStory, carousel] = [await addMetaAccount(t, org, 'instagram'), await addMetaAccount(t, org, 'instagram'), await addMetaAccount(t, org, 'instagram', { login: 'instagram' }), await addMetaAccount(t, org, 'instagram')];
      const id = await publishNow([
        { accountId: reel.id, platformSpecificData: { mediaUrl: media('/c.mp4'), mediaType: 'VIDEO', shareToFeed: false, thumbOffset: 1500, coverUrl: media('/cover.jpg'), audioName: 'Oven sounds', trialParams: { graduationStrategy: 'MANUAL' }, userTags: [{ username: 'friend' }] } },
        { accountId: story.id, platformSpecificData: { mediaUrl: media('/a.jpg'), contentType: 'story' } },
        { accountId: videoStory.id, platformSpecificData: { mediaUrl: media('/c.mp4'), mediaType: 'STORIES' } },
        { accountId: carousel.id, platformSpecificData: { mediaUrls: [media('/a.jpg'), media('/c.mp4'), media('/b.jpg')], altTexts: ['one', null, 'three'], userTags: [{ username: 'friend', x: 0.1, y: 0.2, mediaIndex: 2 }], locationId: '42' } },
      ], 'Many kinds');
      const post = await settled(t, key, id, undefined, 20_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const creates = (user: string) => calls('graph.facebook.com', start, user).concat(calls('graph.instagram.com', start, user)).filter((e) => e.method === 'POST' && e.path.endsWith('/media')).map((e) => e.body as Form);
      assert.deepEqual(creates(reel.platformUserId), [{
        media_type: 'REELS', video_url: media('/c.mp4'), caption: 'Many kinds', user_tags: '[{"username":"friend"}]', share_to_feed: 'false', thumb_offset: '1500', cover_url: media('/cover.jpg'), audio_name: 'Oven sounds', trial_params: '{"graduation_strategy":"MANUAL"}',
      }]);
      assert.deepEqual(creates(story.platformUserId), [{ media_type: 'STORIES', image_url: media('/a.jpg') }]);
      assert.deepEqual(creates(videoStory.platformUserId), [{ media_type: 'STORIES', video_url: media('/c.mp4') }]);
      const items = creates(carousel.platformUserId);
      assert.deepEqual(items.slice(0, 3), [
        { image_url: media('/a.jpg'), is_carousel_item: 'true', alt_text: 'one' },
        { media_type: 'VIDEO', video_url: media('/c.mp4'), is_carousel_item: 'true' },
        { image_url: media('/b.jpg'), is_carousel_item: 'true', alt_text: 'three', user_tags: '[{"username":"friend","x":0.1,"y":0.2}]' },
      ]);
      assert.deepEqual(without(items[3], 'children'), { media_type: 'CAROUSEL', caption: 'Many kinds', location_id: '42' });
      assert.equal(items[3]?.children?.split(',').length, 3);
      const products = post.targets.map((target) => t.sandbox.meta.igMedia.get(target.platformPostId ?? '')?.productType);
      assert.deepEqual(products, ['REELS', 'STORY', 'STORY', 'FEED']);
      assert.equal(t.sandbox.meta.igMedia.get(post.targets[3]?.platformPostId ?? '')?.mediaType, 'CAROUSEL_ALBUM');
    });

    test('a container that ends in ERROR fails the target at once with the reason', async () => {
      const video = await vanishingVideo();
      try {
        const acc = await addMetaAccount(t, org, 'instagram');
        const start = mark();
        const post = await settled(t, key, await publishNow([{ accountId: acc.id, platformSpecificData: { mediaUrl: video.url, mediaType: 'REELS' } }]));
        assert.equal(post.status, 'failed');
        assert.equal(post.targets[0]?.error, 'Instagram could not process the media: the media could not be fetched from its URL (2207052)');
        assert.equal(post.targets[0]?.attempts, 1);
        assert.equal(calls('graph.facebook.com', start, acc.platformUserId).filter((e) => e.path.endsWith('/media_publish')).length, 0);
      } finally {
        await video.close();
      }
    });

    test('media of a type instagram does not take, or unreachable, is refused before any platform call', async () => {
      const acc = await addMetaAccount(t, org, 'instagram');
      const start = mark();
      const post = await settled(t, key, await publishNow([
        { accountId: acc.id, platformSpecificData: { mediaUrl: media('/p.jpg') } },
        { accountId: (await addMetaAccount(t, org, 'instagram')).id, platformSpecificData: { mediaUrls: [media('/a.jpg'), media('/missing.jpg')] } },
        { accountId: (await addMetaAccount(t, org, 'instagram')).id, platformSpecificData: { mediaUrl: media('/still'), mediaType: 'REELS' } },
      ]));
      assert.equal(post.status, 'failed');
      assert.equal(post.targets[0]?.error, `invalid_media: mediaUrls[0] ${media('/p.jpg')} is image/png; instagram takes JPEG images and MP4 or MOV videos`);
      assert.equal(post.targets[1]?.error, `invalid_media: mediaUrls[1] ${media('/missing.jpg')} could not be fetched (the server answered HTTP 404)`);
      assert.equal(post.targets[2]?.error, `invalid_media: mediaUrls[0] ${media('/still')} is image/jpeg, but this instagram post needs a video`);
      assert.deepEqual(post.targets.map((x) => x.attempts), [1, 1, 1]);
      // Only the publishing window was read (POST /posts checks it for publishNow targets).
      const made = [...calls('graph.facebook.com', start), ...calls('graph.instagram.com', start)].filter((e) => !e.path.endsWith('/content_publishing_limit'));
      assert.equal(made.length, 0, 'no platform call was made');
    });

    test('a transient failure after the container was saved: the retry reuses it and publishes exactly once', async () => {
      const acc = await addMetaAccount(t, org, 'instagram');
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${acc.platformUserId}/media_publish`, method: 'POST', kind: 'server_error', status: 500, times: 1 });
      const start = mark();
      const id = await publishNow([{ accountId: acc.id, platformSpecificData: { mediaUrl: media('/c.mp4'), firstComment: 'once' } }]);
      const targetId = (await getPost(t, key, id)).targets[0]?.id ?? '';
      const row = await waitFor(async () => {
        const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('id', '=', targetId).executeTakeFirstOrThrow();
        return r.status === 'pending' && r.attempts === 1 ? r : null;
      }, 10_000, 'the first attempt to fail transiently');
      const saved = JSON.parse(row.progress) as { container?: string };
      assert.ok(saved.container, 'the container id was saved before media_publish');
      clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1;
      t.worker?.wake();
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(post.targets[0]?.attempts, 2);
      const entries = calls('graph.facebook.com', start, acc.platformUserId);
      assert.equal(entries.filter((e) => e.method === 'POST' && e.path.endsWith('/media')).length, 1, 'one container');
      const publishes = entries.filter((e) => e.path.endsWith('/media_publish'));
      assert.deepEqual(publishes.map((e) => [e.status, (e.body as Form).creation_id]), [[500, saved.container], [200, saved.container]], 'published once, from the saved container');
      const comments = [...t.sandbox.meta.igComments.values()].filter((c) => c.mediaId === post.targets[0]?.platformPostId);
      assert.equal(comments.length, 1);
    });

    test('a container published by an attempt whose answer was lost is never published again; its media id is read back', async () => {
      const acc = await addMetaAccount(t, org, 'instagram');
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${acc.platformUserId}/media_publish`, method: 'POST', kind: 'server_error', status: 503, times: 1 });
      const id = await publishNow([{ accountId: acc.id, platformSpecificData: { mediaUrl: media('/a.jpg') } }]);
      const targetId = (await getPost(t, key, id)).targets[0]?.id ?? '';
      const row = await waitFor(async () => {
        const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('id', '=', targetId).executeTakeFirstOrThrow();
        return r.status === 'pending' && r.attempts === 1 ? r : null;
      }, 10_000, 'the first attempt to fail transiently');
      const container = (JSON.parse(row.progress) as { container: string }).container;
      // The platform did publish it (the 503 stands for an answer lost on the way back).
      const direct = await fetch(`${t.url}/sandbox/graph.facebook.com/v24.0/${acc.platformUserId}/media_publish`, { method: 'POST', body: new URLSearchParams({ access_token: acc.token, creation_id: container }) });
      assert.equal(direct.status, 200);
      const mediaId = ((await direct.json()) as { id: string }).id;
      const start = mark();
      clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1;
      t.worker?.wake();
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published');
      assert.equal(post.targets[0]?.platformPostId, mediaId, 'the lost media id is read back from the account media');
      assert.ok(post.targets[0]?.url, 'and its permalink with it');
      assert.equal(calls('graph.facebook.com', start, acc.platformUserId).filter((e) => e.path.endsWith('/media_publish')).length, 0);
    });
  });
}
