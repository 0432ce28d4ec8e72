// A published YouTube video through the API, on both stores (DESIGN "More platforms": published
// posts, comments and inbox, analytics): unpublish is videos.delete; an edit rewrites the
// description through videos.update with the snippet read first (title and category kept);
// comments are listed from commentThreads (replies from comments.list), answered under their
// thread, hidden by moderation, and the channel's own deleted; a viewer's comment is polled into
// the inbox once as comment.received and the channel's first comment emits nothing; analytics map
// videos.list statistics and the Analytics report; best time falls back to Thu–Sat 18–21 UTC;
// another organization reaches none of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { queueStandingJobs } from '../src/composition.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { createPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';
import { addYouTubeAccount, type YouTubeAccount } from './youtube-support.ts';

for (const dialect of DIALECTS) {
  describe(`published youtube videos [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ManualClock(Date.UTC(2031, 2, 3, 9, 1, 7));

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      t.sandbox.updateSettings({ processing: { youtubeVideoMs: 0 }, youtube: { audited: true } });
      files = await fileServer({ '/v.mp4': { body: Buffer.concat([samples.mp4, Buffer.alloc(5000, 1)]) } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const db = () => t.runtime.deps.store.db;
    const publish = async (acc: YouTubeAccount, extra: Record<string, unknown> = {}): Promise<{ post: ApiPost; videoId: string }> => {
      const res = await createPost(t, key, { content: 'Our sourdough', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: { mediaUrl: `${files.url}/v.mp4`, title: 'Sourdough', madeForKids: false, tags: ['bread'], categoryId: '26', ...extra } }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      return { post, videoId: post.targets[0]?.platformPostId ?? '' };
    };
    const send = (path: string, method: string, body: unknown, apiKey = key) => t.request(path, { key: apiKey, method, headers: json, body: JSON.stringify(body) });

    test('unpublish deletes the video; an edit rewrites the description and keeps the title, tags and category', async () => {
      const acc = await addYouTubeAccount(t, org);
      const { post, videoId } = await publish(acc);
      const edited = await send(`/api/v1/posts/${post.id}/edit`, 'POST', { content: 'Our sourdough, now with rye' });
      assert.ok(edited.status < 300, await edited.clone().text());
      await waitFor(() => Promise.resolve(t.sandbox.youtube.videos.get(videoId)?.description === 'Our sourdough, now with rye' || null), 10_000, 'the edit on YouTube');
      const video = t.sandbox.youtube.videos.get(videoId);
      assert.deepEqual([video?.title, video?.tags, video?.categoryId], ['Sourdough', ['bread'], '26']);
      const update = t.sandbox.journal.list({ host: 'www.googleapis.com', method: 'PUT', path: '/youtube/v3/videos' }).at(-1);
      assert.equal(update?.query.part, 'snippet');

      const gone = await send(`/api/v1/posts/${post.id}/unpublish`, 'POST', {});
      assert.equal(gone.status, 200, await gone.clone().text());
      assert.equal(t.sandbox.youtube.videos.get(videoId)?.deleted, true);
      assert.equal(t.sandbox.journal.list({ host: 'www.googleapis.com', method: 'DELETE', path: '/youtube/v3/videos' }).at(-1)?.query.id, videoId);
    });

    test('an edit YouTube would refuse (< or >, over 5000 UTF-8 bytes) is a 400 naming content, and YouTube is not called', async () => {
      const acc = await addYouTubeAccount(t, org);
      const { post, videoId } = await publish(acc);
      const before = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      for (const content of ['1 < 2', 'é'.repeat(2501)]) {
        const refused = await send(`/api/v1/posts/${post.id}/edit`, 'POST', { content });
        assert.equal(refused.status, 400, await refused.clone().text());
        assert.match(((await refused.json()) as { error: { message: string } }).error.message, /^youtube: content: /);
      }
      assert.equal(t.sandbox.journal.list({ host: 'www.googleapis.com', after: before }).length, 0, 'no call to YouTube');
      assert.equal(t.sandbox.youtube.videos.get(videoId)?.description, 'Our sourdough');
    });

    test('comments: listed with their replies, answered under the thread, hidden, the own deleted; another organization reaches none', async () => {
      const acc = await addYouTubeAccount(t, org);
      const { post, videoId } = await publish(acc);
      const control = (body: unknown) => fetch(`${t.url}/sandbox/_sandbox/youtube/comments`, { method: 'POST', headers: json, body: JSON.stringify(body) });
      const first = ((await (await control({ postId: videoId, text: 'Open on Sunday?', from: 'Hungry Fan' })).json()) as { comment: { id: string } }).comment;
      await control({ postId: videoId, text: 'Asking too', from: 'Second Fan', parentId: first.id });
      const listed = await t.request(`/api/v1/posts/${post.id}/comments`, { key });
      assert.equal(listed.status, 200, await listed.clone().text());
      const comments = ((await listed.json()) as { comments: Array<{ id: string; text: string; username: string; parentId: string | null }> }).comments;
      assert.deepEqual(comments.map((c) => [c.text, c.username, c.parentId]), [['Open on Sunday?', 'Hungry Fan', null], ['Asking too', 'Second Fan', first.id]]);
      const reply = comments[1]?.id ?? '';

      // A reply to a reply goes under the thread's top-level comment.
      const replied = await send(`/api/v1/inbox/comments/${reply}/reply`, 'POST', { accountId: acc.id, text: 'Yes, 9 to 1' });
      assert.equal(replied.status, 200, await replied.clone().text());
      const sent = t.sandbox.journal.list({ host: 'www.googleapis.com', method: 'POST', path: '/youtube/v3/comments' }).at(-1);
      assert.deepEqual(sent?.body, { snippet: { parentId: first.id, textOriginal: 'Yes, 9 to 1' } });
      const own = [...t.sandbox.youtube.comments.values()].find((c) => c.textOriginal === 'Yes, 9 to 1');
      assert.equal(own?.authorChannelId, acc.channelId);

      assert.equal((await send(`/api/v1/inbox/comments/${first.id}/hide`, 'POST', { accountId: acc.id })).status, 200);
      assert.equal(t.sandbox.youtube.comments.get(first.id)?.moderationStatus, 'rejected');
      assert.equal((await t.request(`/api/v1/inbox/comments/${own?.id ?? ''}?accountId=${acc.id}`, { key, method: 'DELETE' })).status, 200);
      assert.equal(t.sandbox.youtube.comments.get(own?.id ?? '')?.deleted, true);
      const like = await send(`/api/v1/inbox/comments/${reply}/like`, 'POST', { accountId: acc.id });
      assert.equal(like.status, 400, 'YouTube has no API to like a comment');

      const other = await t.tenant();
      assert.equal((await t.request(`/api/v1/posts/${post.id}/comments`, { key: other.key })).status, 404);
      const foreign = await send(`/api/v1/inbox/comments/${reply}/reply`, 'POST', { accountId: acc.id, text: 'not mine' }, other.key);
      assert.equal(foreign.status, 404, await foreign.clone().text());
      const foreignPost = await createPost(t, other.key, { content: 'x', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: { mediaUrl: `${files.url}/v.mp4`, title: 'T', madeForKids: false } }] });
      assert.ok(foreignPost.status === 400 || foreignPost.status === 404, JSON.stringify(foreignPost.body));
    });

    test('a viewer comment is polled into the inbox once as comment.received; the channel’s first comment emits nothing', async () => {
      const acc = await addYouTubeAccount(t, org);
      const { videoId } = await publish(acc, { firstComment: 'Recipe below' });
      await fetch(`${t.url}/sandbox/_sandbox/youtube/comments`, { method: 'POST', headers: json, body: JSON.stringify({ postId: videoId, text: 'Gluten free?', from: 'Curious' }) });
      await queueStandingJobs(t.runtime.deps);
      const runPoll = async () => {
        const [job] = await db().selectFrom('jobs').selectAll().where('kind', '=', 'inbox.comment_poll').orderBy('run_at').execute();
        assert.ok(job, 'a poll is queued');
        clock.advance(Math.max(0, job.run_at - clock.now()));
        t.worker?.wake();
        await waitFor(async () => !(await db().selectFrom('jobs').select('id').where('id', '=', job.id).executeTakeFirst()), 10_000, 'the poll to finish');
      };
      const received = async () =>
        (await db().selectFrom('events').selectAll().where('organization_id', '=', org).where('type', '=', 'comment.received').execute())
          .map((e) => JSON.parse(e.data) as { comment: { text: string; platform?: string } })
          .filter((e) => e.comment.text === 'Gluten free?' || e.comment.text === 'Recipe below');
      await runPoll();
      assert.deepEqual((await received()).map((e) => e.comment.text), ['Gluten free?']);
      await runPoll();
      assert.equal((await received()).length, 1, 'read again, emitted once');
    });

    test('analytics: views, likes and comments from the video statistics; shares, video views, follows (subscribersGained) and watch time from the Analytics report; followers and videos of the channel', async () => {
      const acc = await addYouTubeAccount(t, org);
      const { post, videoId } = await publish(acc);
      await fetch(`${t.url}/sandbox/_sandbox/youtube/statistics`, { method: 'POST', headers: json, body: JSON.stringify({ postId: videoId, viewCount: 420, likeCount: 37, shares: 6, subscribersGained: 3, estimatedMinutesWatched: 95 }) });
      await fetch(`${t.url}/sandbox/_sandbox/youtube/comments`, { method: 'POST', headers: json, body: JSON.stringify({ postId: videoId, text: 'Lovely', from: 'Fan' }) });
      const read = await t.request(`/api/v1/analytics/posts/${post.id}?refresh=1`, { key });
      assert.equal(read.status, 200, await read.clone().text());
      const [target] = ((await read.json()) as { targets: Array<{ metrics: Record<string, number>; errors: unknown[] }> }).targets;
      assert.deepEqual(target?.metrics, { views: 420, likes: 37, comments: 1, shares: 6, videoViews: 420, follows: 3, subscribersGained: 3, watchTimeMinutes: 95 });
      assert.deepEqual(target?.errors, []);
      const report = t.sandbox.journal.list({ host: 'youtubeanalytics.googleapis.com', path: '/v2/reports' }).at(-1);
      assert.equal(report?.query.filters, `video==${videoId}`);

      const account = await t.request(`/api/v1/analytics/accounts/${acc.id}?metrics=followers,videos&since=2031-02-01&until=2031-03-01`, { key });
      assert.equal(account.status, 200, await account.clone().text());
      const body = JSON.stringify(await account.json());
      assert.match(body, /"followers"/);
      assert.match(body, /1200/);
    });

    test('best time without data of the account: Thursday to Saturday, 18–21 UTC', async () => {
      const acc = await addYouTubeAccount(t, org);
      const res = await t.request(`/api/v1/analytics/best-time?accountId=${acc.id}`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { slots: Array<{ weekday: number; hour: number }> };
      assert.ok(body.slots.length > 0);
      for (const slot of body.slots) assert.ok(slot.weekday >= 3 && slot.weekday <= 5 && slot.hour >= 18 && slot.hour <= 21, JSON.stringify(slot));
    });
  });
}
