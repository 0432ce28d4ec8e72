// Facebook Page delivery against the sandbox over HTTP, on both stores: feed text, link, drafts,
// one photo, one video, multi-photo posts, Reels through rupload, photo and video stories, and
// the first comment, read from the sandbox's journal and state; a multi-photo post that fails
// after its photos were uploaded reuses them on retry.
import assert from 'node:assert/strict';
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

for (const dialect of DIALECTS) {
  describe(`posts to facebook [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ShiftClock();
    const media = (path: string) => `${files.url}${path}`;

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      quickMetaProcessing(t);
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.jpg': { body: samples.jpeg }, '/c.mp4': { body: samples.mp4 } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    /** POSTs to graph.facebook.com on the Page's edges, as [edge, body]. */
    const edges = (pageId: string, after: number) =>
      t.sandbox.journal.list({ host: 'graph.facebook.com', after }).filter((e) => e.method === 'POST' && e.path.includes(`/${pageId}/`)).map((e) => [e.path.split('/').at(-1), e.body as Form] as const);
    const publishNow = async (platforms: unknown[], content = 'From the bakery') => {
      const res = await createPost(t, key, { content, publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.post.id;
    };
    const fbPost = (id: string | null | undefined) => t.sandbox.meta.fbPosts.get(id ?? '');

    test('feed text with a first comment, a link post and a draft', async () => {
      const [text, link, draft] = [await addMetaAccount(t, org, 'facebook'), await addMetaAccount(t, org, 'facebook'), await addMetaAccount(t, org, 'facebook')];
      const start = mark();
      const post = await settled(t, key, await publishNow([
        { accountId: text.id, platform: 'facebook', platformSpecificData: { firstComment: 'Opening hours in the comments' } },
        { accountId: link.id, platformSpecificData: { link: 'https://example.com/menu' } },
        { accountId: draft.id, platformSpecificData: { draft: true } },
      ]));
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(edges(text.pageId, start), [['feed', { message: 'From the bakery' }]]);
      assert.deepEqual(edges(link.pageId, start), [['feed', { message: 'From the bakery', link: 'https://example.com/menu' }]]);
      assert.deepEqual(edges(draft.pageId, start), [['feed', { message: 'From the bakery', published: 'false' }]]);
      const [first, second, third] = post.targets;
      assert.match(first?.platformPostId ?? '', new RegExp(`^${text.pageId}_\\d+$`));
      assert.match(first?.url ?? '', new RegExp(`^${t.url}/sandbox/www\\.facebook\\.com/\\d+/posts/\\d+$`));
      const comments = [...t.sandbox.meta.fbComments.values()].filter((c) => c.postId === first?.platformPostId);
      assert.deepEqual(comments.map((c) => [c.message, c.fromId]), [['Opening hours in the comments', text.pageId]]);
      assert.equal(fbPost(second?.platformPostId)?.link, 'https://example.com/menu');
      assert.equal(fbPost(third?.platformPostId)?.published, false, 'a draft stays unpublished');
    });

    test('one photo, one video (processed, then its post), and a multi-photo post', async () => {
      const [photo, video, album] = [await addMetaAccount(t, org, 'facebook'), await addMetaAccount(t, org, 'facebook'), await addMetaAccount(t, org, 'facebook')];
      const start = mark();
      const post = await settled(t, key, await publishNow([
        { accountId: photo.id, platformSpecificData: { mediaUrl: media('/a.jpg'), firstComment: 'Fresh' } },
        { accountId: video.id, platformSpecificData: { mediaUrl: media('/c.mp4'), title: 'Kneading' } },
        { accountId: album.id, platformSpecificData: { mediaUrls: [media('/a.jpg'), media('/b.jpg')] } },
      ]));
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [p, v, a] = post.targets;
      assert.deepEqual(edges(photo.pageId, start), [['photos', { url: media('/a.jpg'), caption: 'From the bakery' }]]);
      assert.equal(fbPost(p?.platformPostId)?.kind, 'photo');
      assert.equal([...t.sandbox.meta.fbComments.values()].filter((c) => c.postId === p?.platformPostId).length, 1);
      assert.deepEqual(edges(video.pageId, start), [['videos', { file_url: media('/c.mp4'), description: 'From the bakery', title: 'Kneading' }]]);
      assert.equal(fbPost(v?.platformPostId)?.kind, 'video');
      const albumCalls = edges(album.pageId, start);
      assert.deepEqual(albumCalls.slice(0, 2), [['photos', { url: media('/a.jpg'), published: 'false' }], ['photos', { url: media('/b.jpg'), published: 'false' }]]);
      const feed = albumCalls[2]?.[1] ?? {};
      assert.equal(feed.message, 'From the bakery');
      assert.deepEqual(fbPost(a?.platformPostId)?.photoIds.length, 2);
      assert.match(feed['attached_media[0]'] ?? '', /^\{"media_fbid":"\d+"\}$/);
    });

    test('a Reel through start, rupload by file_url and finish; photo and video stories', async () => {
      const [reel, photoStory, videoStory] = [await addMetaAccount(t, org, 'facebook'), await addMetaAccount(t, org, 'facebook'), await addMetaAccount(t, org, 'facebook')];
      const start = mark();
      const post = await settled(t, key, await publishNow([
        { accountId: reel.id, platformSpecificData: { contentType: 'reel', mediaUrl: media('/c.mp4'), title: 'Our first reel' } },
        { accountId: photoStory.id, platformSpecificData: { contentType: 'story', mediaUrl: media('/a.jpg') } },
        { accountId: videoStory.id, platformSpecificData: { contentType: 'story', mediaUrl: media('/c.mp4') } },
      ], 'Reel caption'), undefined, 20_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const reelCalls = edges(reel.pageId, start);
      assert.deepEqual(reelCalls[0], ['video_reels', { upload_phase: 'start' }]);
      const videoId = reelCalls[1]?.[1].video_id ?? '';
      assert.deepEqual(reelCalls[1], ['video_reels', { upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: 'Reel caption', title: 'Our first reel' }]);
      const uploads = t.sandbox.journal.list({ host: 'rupload.facebook.com', after: start });
      assert.ok(uploads.some((e) => e.path.endsWith(`/${videoId}`) && e.status === 200), 'the video went through rupload.facebook.com');
      assert.equal(t.sandbox.meta.fbVideos.get(videoId)?.bytes, samples.mp4.length, 'fetched from file_url');
      assert.equal(post.targets[0]?.platformPostId, t.sandbox.meta.fbVideos.get(videoId)?.postId);
      const photoCalls = edges(photoStory.pageId, start);
      assert.deepEqual(photoCalls.map(([edge]) => edge), ['photos', 'photo_stories']);
      assert.deepEqual(photoCalls[0]?.[1], { url: media('/a.jpg'), published: 'false' });
      assert.deepEqual(edges(videoStory.pageId, start).map(([edge, body]) => [edge, body.upload_phase]), [['video_stories', 'start'], ['video_stories', 'finish']]);
      assert.deepEqual(post.targets.slice(1).map((x) => fbPost(x.platformPostId)?.kind), ['story', 'story']);
    });

    test('a multi-photo post failing after its photos were uploaded reuses them on retry', async () => {
      const acc = await addMetaAccount(t, org, 'facebook');
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${acc.pageId}/feed`, method: 'POST', kind: 'error', code: 2, status: 503, message: 'Service temporarily unavailable' });
      const start = mark();
      const id = await publishNow([{ accountId: acc.id, platformSpecificData: { mediaUrls: [media('/a.jpg'), media('/b.jpg')], firstComment: 'just once' } }]);
      const targetId = (await getPost(t, key, id)).targets[0]?.id ?? '';
      const row = await waitFor(async () => {
        const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('id', '=', targetId).executeTakeFirstOrThrow();
        return r.status === 'pending' && r.attempts === 1 ? r : null;
      }, 10_000, 'the first attempt to fail transiently');
      assert.equal((JSON.parse(row.progress) as { photos: string[] }).photos.length, 2);
      clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1;
      t.worker?.wake();
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(edges(acc.pageId, start).map(([edge]) => edge), ['photos', 'photos', 'feed', 'feed']);
      assert.equal([...t.sandbox.meta.fbComments.values()].filter((c) => c.postId === post.targets[0]?.platformPostId).length, 1);
    });
  });
}
