// youtube delivery against the sandbox over HTTP, on both stores (DESIGN "More platforms", the
// youtube table): one video by resumable upload in 8 MiB chunks (the session URI stored before the
// first byte), every key of the table in the video resource, the thumbnail, the playlist item and
// the first comment; publishAt uploads private; every rule a 400 naming the field; an upload whose
// first chunk's answer is lost resumes from the session's Range instead of uploading again; a
// thumbnail refused (unverified channel) leaves the video published; YouTube's quotaExceeded waits
// for midnight Pacific and the service then answers 429 before calling.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/lib/ids.ts';
import { untilPacificMidnight } from '../src/platforms/youtube/api.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { createPost, settled, startPostsApp, ShiftClock, type PostsApp } from './posts-support.ts';
import { addYouTubeAccount } from './youtube-support.ts';

type Body = Record<string, unknown>;
const MIB8 = 8 * 1024 * 1024;
const TIMEOUT_MS = 3000;

for (const dialect of DIALECTS) {
  describe(`posts to youtube [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ShiftClock();
    const big = Buffer.concat([samples.mp4, Buffer.alloc(MIB8 + 300_000 - samples.mp4.length, 5)]);
    const small = Buffer.concat([samples.mp4, Buffer.alloc(20_000, 5)]);
    const media = (path: string) => `${files.url}${path}`;
    // The files the media server answers; a test may take one away (a signed URL that expired).
    const served: Record<string, { body: Buffer }> = { '/big.mp4': { body: big }, '/v.mp4': { body: small }, '/thumb.jpg': { body: samples.jpeg }, '/expiring.mp4': { body: small } };

    before(async () => {
      t = await startPostsApp(dialect, { clock, env: { PLATFORM_TIMEOUT_MS: String(TIMEOUT_MS) } });
      t.sandbox.updateSettings({ processing: { youtubeVideoMs: 100 }, youtube: { audited: true } });
      files = await fileServer(served);
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const calls = (after: number, method: string, path: string) => t.sandbox.journal.list({ host: 'www.googleapis.com', after, method }).filter((e) => e.path === path);
    const live = (extra: Body = {}) => ({ mediaUrl: media('/v.mp4'), title: `Loaf ${newId('post').slice(-6)}`, madeForKids: false, ...extra });
    const publish = async (accountId: string, platformSpecificData: Body, content = 'Our sourdough, start to finish') => {
      const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId, platformSpecificData }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id, undefined, 30_000);
      return { post, target: post.targets[0] };
    };

    test('every key: the resumable upload in 8 MiB chunks, the video resource, thumbnail, playlist and first comment; the url opens', async () => {
      const acc = await addYouTubeAccount(t, org);
      const playlist = `PL${newId('post').slice(-10)}`;
      t.sandbox.youtube.playlists.set(playlist, { id: playlist, channelId: acc.channelId, title: 'Breads' });
      const start = mark();
      const { post, target } = await publish(acc.id, {
        mediaUrl: media('/big.mp4'),
        title: 'Sourdough, start to finish',
        privacyStatus: 'unlisted',
        madeForKids: false,
        tags: ['bread', 'sour dough'],
        categoryId: '26',
        thumbnailUrl: media('/thumb.jpg'),
        playlistId: playlist,
        notifySubscribers: false,
        containsSyntheticMedia: false,
        embeddable: true,
        license: 'creativeCommon',
        defaultLanguage: 'en',
        firstComment: 'Recipe in the description',
      });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [begin] = calls(start, 'POST', '/upload/youtube/v3/videos');
      assert.ok(begin);
      assert.deepEqual([begin.query.uploadType, begin.query.part, begin.query.notifySubscribers], ['resumable', 'snippet,status', 'false']);
      assert.equal(begin.headers['x-upload-content-length'], String(big.length));
      assert.equal(begin.headers['x-upload-content-type'], 'video/mp4');
      assert.deepEqual(begin.body, {
        snippet: { title: 'Sourdough, start to finish', description: 'Our sourdough, start to finish', tags: ['bread', 'sour dough'], categoryId: '26', defaultLanguage: 'en' },
        status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false, containsSyntheticMedia: false, embeddable: true, license: 'creativeCommon' },
      });
      const chunks = calls(start, 'PUT', '/upload/youtube/v3/videos');
      assert.deepEqual(chunks.map((c) => [c.headers['content-range'], c.status]), [[`bytes 0-${MIB8 - 1}/${big.length}`, 308], [`bytes ${MIB8}-${big.length - 1}/${big.length}`, 201]]);
      const video = t.sandbox.youtube.videos.get(target?.platformPostId ?? '');
      assert.ok(video);
      assert.deepEqual([video.channelId, video.privacyStatus, video.size, video.hasCustomThumbnail, video.license], [acc.channelId, 'unlisted', big.length, true, 'creativeCommon']);
      assert.deepEqual([...t.sandbox.youtube.playlistItems.values()].filter((i) => i.videoId === video.id).map((i) => i.playlistId), [playlist]);
      const comments = [...t.sandbox.youtube.comments.values()].filter((c) => c.videoId === video.id);
      assert.deepEqual(comments.map((c) => [c.textOriginal, c.authorChannelId, c.parentId]), [['Recipe in the description', acc.channelId, null]]);
      assert.equal(target?.url, `${t.url}/sandbox/www.youtube.com/watch?v=${video.id}`);
      const page = await fetch(target?.url ?? '');
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Sourdough, start to finish/);
    });

    test('publishAt: uploaded private with the time, YouTube makes it public then; an unaudited project keeps it private', async () => {
      const acc = await addYouTubeAccount(t, org);
      const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const start = mark();
      const { target } = await publish(acc.id, live({ publishAt: at }));
      const [begin] = calls(start, 'POST', '/upload/youtube/v3/videos');
      assert.deepEqual((begin?.body as { status: Body }).status, { privacyStatus: 'private', publishAt: at, selfDeclaredMadeForKids: false });
      assert.equal(t.sandbox.youtube.videos.get(target?.platformPostId ?? '')?.publishAt, at);

      t.sandbox.updateSettings({ youtube: { audited: false } });
      try {
        const locked = await publish(acc.id, live({ privacyStatus: 'public' }));
        assert.equal(locked.post.status, 'published');
        assert.equal(t.sandbox.youtube.videos.get(locked.target?.platformPostId ?? '')?.privacyStatus, 'private');
      } finally {
        t.sandbox.updateSettings({ youtube: { audited: true } });
      }
    });

    test('every rule is a 400 naming the field; other platforms’ keys are warnings', async () => {
      const acc = await addYouTubeAccount(t, org);
      const refuse = async (content: string, data: Body, field: RegExp) => {
        const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: data }] });
        assert.equal(res.status, 400, `${JSON.stringify(data)}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.error?.message ?? '', field);
      };
      await refuse('ok', { title: 'T', madeForKids: false }, /^platforms\[0\]\.platformSpecificData\.mediaUrl: required for live posts/);
      await refuse('ok', { mediaUrl: media('/v.mp4'), madeForKids: false }, /^platforms\[0\]\.platformSpecificData\.title: required for live posts/);
      await refuse('ok', { mediaUrl: media('/v.mp4'), title: 'T' }, /^platforms\[0\]\.platformSpecificData\.madeForKids: required for live posts/);
      await refuse('ok', live({ title: 'x'.repeat(101) }), /^platforms\[0\]\.platformSpecificData\.title: must have at most 100 characters/);
      await refuse('ok', live({ title: 'a <b>' }), /^platforms\[0\]\.platformSpecificData\.title: YouTube refuses < and >/);
      await refuse('é'.repeat(2501), live(), /^platforms\[0\]\.content: a YouTube description has at most 5000 UTF-8 bytes/);
      await refuse('1 < 2', live(), /^platforms\[0\]\.content: YouTube refuses < and >/);
      await refuse('ok', live({ tags: ['a b'.repeat(60), 'x'.repeat(320)] }), /^platforms\[0\]\.platformSpecificData\.tags: YouTube allows 500 characters/);
      await refuse('ok', live({ tags: ['fine', ''] }), /^platforms\[0\]\.platformSpecificData\.tags\[1\]: must be a non-empty string/);
      await refuse('ok', live({ categoryId: 'food' }), /^platforms\[0\]\.platformSpecificData\.categoryId: must be digits/);
      await refuse('ok', live({ privacyStatus: 'hidden' }), /^platforms\[0\]\.platformSpecificData\.privacyStatus: must be one of public, unlisted, private/);
      await refuse('ok', live({ publishAt: 'tomorrow' }), /^platforms\[0\]\.platformSpecificData\.publishAt: must be an ISO 8601 date-time/);
      await refuse('ok', live({ publishAt: new Date(Date.now() + 86_400_000).toISOString(), privacyStatus: 'unlisted' }), /^platforms\[0\]\.platformSpecificData\.publishAt: goes with privacyStatus public/);
      await refuse('ok', live({ madeForKids: 'no' }), /^platforms\[0\]\.platformSpecificData\.madeForKids: must be a boolean/);
      await refuse('ok', live({ license: 'cc0' }), /^platforms\[0\]\.platformSpecificData\.license: must be one of youtube, creativeCommon/);
      await refuse('ok', live({ firstComment: 'x'.repeat(10_001) }), /^platforms\[0\]\.platformSpecificData\.firstComment: must have at most 10000 characters/);
      await refuse('ok', live({ thumbnailUrl: 'ftp://x/y.jpg' }), /^platforms\[0\]\.platformSpecificData\.thumbnailUrl: /);
      const draft = await createPost(t, key, { content: 'draft', platforms: [{ accountId: acc.id, platformSpecificData: { title: 'Later', subreddit: 'sandbox' } }] });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      assert.deepEqual(draft.body.post.targets[0]?.warnings.map((w) => w.key), ['subreddit']);
      const many = await createPost(t, key, { content: 'draft', platforms: [{ accountId: acc.id, platformSpecificData: { mediaUrls: [media('/v.mp4')] } }] });
      assert.deepEqual(many.body.post.targets[0]?.warnings.map((w) => w.key), ['mediaUrls'], 'one video: mediaUrl, not mediaUrls');
    });

    /**
     * Publishes with the first chunk reaching YouTube after the service stopped waiting for its
     * answer; answers once the first attempt failed and the late chunk landed (with `landed`).
     */
    async function chunkAnsweredLate(content: string, mediaUrl: string, landed: number) {
      const acc = await addYouTubeAccount(t, org);
      t.sandbox.faults.add({ host: 'www.googleapis.com', path: '/upload/youtube/v3/videos', method: 'PUT', kind: 'delay', delayMs: TIMEOUT_MS + 1500, times: 1 });
      const start = mark();
      const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: live({ mediaUrl }) }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const id = res.body.post.id;
      const row = await waitFor(async () => {
        const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('post_id', '=', id).executeTakeFirstOrThrow();
        return r.attempts >= 1 && r.status === 'pending' && r.next_attempt_at !== null ? r : null;
      }, 20_000, 'the first attempt to fail');
      await waitFor(() => Promise.resolve(calls(start, 'PUT', '/upload/youtube/v3/videos').some((c) => c.status === landed) || null), 10_000, 'the late chunk');
      return { acc, start, id, row };
    }

    test('an upload whose first chunk was answered too late resumes from the session Range: one session, no byte sent twice', async () => {
      const { acc, start, id, row } = await chunkAnsweredLate('Resumed', media('/big.mp4'), 308);
      assert.match(row.progress, /"session":"https:\/\/www\.googleapis\.com\/upload\/youtube\/v3\/videos\?/, 'the session URI was stored before the first byte');
      // The late chunk landed; then the retry is due.
      clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1000;
      const post = await settled(t, key, id, undefined, 30_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(calls(start, 'POST', '/upload/youtube/v3/videos').length, 1, 'one session');
      const puts = calls(start, 'PUT', '/upload/youtube/v3/videos').map((c) => c.headers['content-range']);
      assert.deepEqual(puts, [`bytes 0-${MIB8 - 1}/${big.length}`, `bytes */${big.length}`, `bytes ${MIB8}-${big.length - 1}/${big.length}`]);
      assert.equal([...t.sandbox.youtube.videos.values()].filter((v) => v.channelId === acc.channelId).length, 1);
    });

    test('an upload whose last chunk was answered too late is adopted from its session, even when the media URL no longer answers: the bytes are not needed again', async () => {
      // The only chunk reaches YouTube (the video is made) after the service stopped waiting for the answer.
      const { acc, start, id, row } = await chunkAnsweredLate('Adopted', media('/expiring.mp4'), 201);
      delete served['/expiring.mp4'];
      clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1000;
      const post = await settled(t, key, id, undefined, 30_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const videos = [...t.sandbox.youtube.videos.values()].filter((v) => v.channelId === acc.channelId);
      assert.deepEqual(videos.map((v) => v.id), [post.targets[0]?.platformPostId], 'the video the late chunk made is the target\'s');
      assert.deepEqual(calls(start, 'PUT', '/upload/youtube/v3/videos').map((c) => c.headers['content-range']), [`bytes 0-${small.length - 1}/${small.length}`, `bytes */${small.length}`]);
    });

    test('an expired session (404) starts a new upload: nothing was created by the first', async () => {
      const acc = await addYouTubeAccount(t, org);
      t.sandbox.faults.add({ host: 'www.googleapis.com', path: '/upload/youtube/v3/videos', method: 'PUT', kind: 'server_error', status: 503, times: 1 });
      const start = mark();
      const res = await createPost(t, key, { content: 'Expired', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: live() }] });
      const id = res.body.post.id;
      const row = await waitFor(async () => {
        const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('post_id', '=', id).executeTakeFirstOrThrow();
        return r.attempts >= 1 && r.status === 'pending' && r.next_attempt_at !== null ? r : null;
      }, 20_000, 'the 503');
      for (const session of t.sandbox.youtube.sessions.values()) session.expiresAt = 0;
      clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1000;
      const post = await settled(t, key, id, undefined, 30_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(calls(start, 'POST', '/upload/youtube/v3/videos').length, 2, 'a second session after the 404');
      assert.equal([...t.sandbox.youtube.videos.values()].filter((v) => v.channelId === acc.channelId).length, 1);
    });

    test('a thumbnail refused (unverified channel) leaves the video published, the refusal kept in the progress', async () => {
      const acc = await addYouTubeAccount(t, org, { verified: false });
      const { post, target } = await publish(acc.id, live({ thumbnailUrl: media('/thumb.jpg') }));
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(t.sandbox.youtube.videos.get(target?.platformPostId ?? '')?.hasCustomThumbnail, false);
      const row = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('post_id', '=', post.id).executeTakeFirstOrThrow();
      assert.match(row.progress, /"thumbnail":"refused: /);
      assert.deepEqual(target?.warnings.map((w: { key: string }) => w.key), ['thumbnailUrl'], 'the refusal is one of the target\'s warnings');
      assert.match(String(target?.warnings[0]?.message), /verified channel/);
    });

    test('a follow-up YouTube refuses (playlist not found, comments disabled) leaves the video published with a warning: the target keeps its video, so publishing again cannot upload a second', async () => {
      const acc = await addYouTubeAccount(t, org);
      t.sandbox.faults.add({
        host: 'www.googleapis.com', path: '/youtube/v3/commentThreads', method: 'POST', kind: 'error', status: 403,
        body: { error: { code: 403, message: 'The video identified by the videoId parameter has disabled comments.', errors: [{ domain: 'youtube.commentThread', reason: 'commentsDisabled', message: 'disabled comments' }] } },
      });
      const { post, target } = await publish(acc.id, live({ playlistId: 'PLnotAPlaylistOfTheChannel', firstComment: 'Recipe below' }));
      assert.equal(post.status, 'published', JSON.stringify(post));
      const videos = [...t.sandbox.youtube.videos.values()].filter((v) => v.channelId === acc.channelId);
      assert.deepEqual(videos.map((v) => v.id), [target?.platformPostId], 'the target holds the one video');
      assert.deepEqual(target?.warnings.map((w: { key: string }) => w.key).sort(), ['firstComment', 'playlistId']);
      assert.match(String(target?.warnings.find((w: { key: string }) => w.key === 'playlistId')?.message), /playlist/i);
    });

    test('quotaExceeded waits for midnight Pacific; the day of the project is spent, so the service answers 429 before calling, for any channel', async () => {
      const acc = await addYouTubeAccount(t, org);
      t.sandbox.updateSettings({ youtube: { uploads: 0 } });
      try {
        const res = await createPost(t, key, { content: 'Over quota', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: live() }] });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const id = res.body.post.id;
        const row = await waitFor(async () => {
          const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('post_id', '=', id).executeTakeFirstOrThrow();
          return r.attempts >= 1 && r.status === 'pending' && r.next_attempt_at !== null ? r : null;
        }, 20_000, 'the retry after quotaExceeded');
        const wait = (row.next_attempt_at ?? 0) - clock.now();
        assert.ok(Math.abs(wait - untilPacificMidnight(clock.now())) < 120_000, `retried ${wait} ms on, midnight Pacific is ${untilPacificMidnight(clock.now())} ms on`);
        const limit = await t.request(`/api/v1/accounts/${acc.id}/publishing-limit`, { key });
        assert.equal(limit.status, 200, await limit.clone().text());
        const reading = (await limit.json()) as { used: number; allowed: number };
        assert.deepEqual([reading.used, reading.allowed], [100, 100], 'the day is spent');
        // The quota is the project's: another channel's post is refused too (its reading is fresh).
        const other = await addYouTubeAccount(t, org);
        const before = mark();
        const refused = await createPost(t, key, { content: 'Still over', publishNow: true, platforms: [{ accountId: other.id, platformSpecificData: live() }] });
        assert.equal(refused.status, 429, JSON.stringify(refused.body));
        assert.equal(refused.body.error?.code, 'rate_limited');
        assert.equal(calls(before, 'POST', '/upload/youtube/v3/videos').length, 0, 'no call to YouTube');
      } finally {
        t.sandbox.updateSettings({ youtube: { uploads: 100 } });
      }
    });
  });
}
