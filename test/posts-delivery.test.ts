// Delivery to the sandbox over HTTP, on both stores: every content type of reddit, threads and
// tiktok reaching the platform with the right requests (read from the sandbox's journal),
// targets in order, retries on the DESIGN schedule with the sandbox failing N calls, permanent
// failures with the platform's message, partial outcomes and their events, unsupported
// platforms failing clearly, resuming a container flow in another worker, and scheduling
// precision (a post due in 300 ms starts within a second).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../src/http/logging.ts';
import { buildJobRegistry } from '../src/composition.ts';
import { enqueue } from '../src/jobs/queue.ts';
import { Worker } from '../src/jobs/worker.ts';
import { postDeliver } from '../src/modules/posts/delivery/kinds.ts';
import type { Clock } from '../src/lib/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addAccount, createPost, getPost, json, settled, startPostsApp, type PostsApp } from './posts-support.ts';

/** Real time plus an offset tests move forward, so retries hours apart run at once. */
class ShiftClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

for (const dialect of DIALECTS) {
  describe(`posts delivery [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ShiftClock();
    const media = (path: string) => `${files.url}${path}`;

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.jpg': { body: samples.jpeg }, '/c.mp4': { body: samples.mp4 }, '/p.webp': { body: samples.webp } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    // Delivery's calls: the publishing-window read POST /posts makes (threads) is left out.
    const journal = (host: string, after = 0) => t.sandbox.journal.list({ host, after }).filter((e) => !e.path.endsWith('_publishing_limit'));
    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const events = (postId: string) =>
      t.runtime.deps.store.db.selectFrom('events').select(['type', 'data']).where('data', 'like', `%${postId}%`).orderBy('id').execute();
    const targetRow = (id: string) => t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const publishNow = async (platforms: unknown[], content = 'Hello sandbox\nThe body of the post.') => {
      const res = await createPost(t, key, { content, publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.post.status, 'queued');
      return res.body.post.id;
    };

    test('reddit: self post (title from the first line), explicit title, link post with flair', async () => {
      const acc = await addAccount(t, org, 'reddit');
      const flair = t.sandbox.people.subreddit('sandbox')?.flairs[0]?.id ?? '';
      const start = mark();
      const id = await publishNow([
        { accountId: acc.id, platform: 'reddit', platformSpecificData: { subreddit: 'sandbox' } },
        { accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox', title: 'My title' } },
        { accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox', url: 'https://example.com/news', flairId: flair } },
      ]);
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const submits = journal('oauth.reddit.com', start).filter((e) => e.path === '/api/submit').map((e) => e.body as Record<string, string>);
      assert.deepEqual(submits.map((b) => [b.kind, b.title, b.text, b.url, b.flair_id]), [
        ['self', 'Hello sandbox', 'The body of the post.', undefined, undefined],
        ['self', 'My title', 'Hello sandbox\nThe body of the post.', undefined, undefined],
        ['link', 'Hello sandbox', undefined, 'https://example.com/news', flair],
      ]);
      for (const target of post.targets) {
        assert.match(target.platformPostId ?? '', /^t3_/);
        assert.ok((target.url ?? '').startsWith(`${t.url}/sandbox/www.reddit.com/r/sandbox/comments/`), target.url ?? 'no url');
        assert.equal(target.attempts, 1);
      }
      assert.deepEqual((await events(id)).map((e) => [e.type, JSON.parse(e.data) as unknown]), [['post.published', { postId: id, status: 'published' }]]);
    });

    test('threads: text with topic tag, reply control, link attachment and first comment; image; video; carousel', async () => {
      const start = mark();
      const text = await publishNow([
        { accountId: (await addAccount(t, org, 'threads')).id, platformSpecificData: { topicTag: 'sandbox', replyControl: 'mentioned_only', linkAttachment: 'https://example.com/l', firstComment: 'first!' } },
        { accountId: (await addAccount(t, org, 'threads')).id, platformSpecificData: { mediaUrl: media('/a.jpg'), altText: 'an image' } },
        { accountId: (await addAccount(t, org, 'threads')).id, platformSpecificData: { mediaUrl: media('/c.mp4') } },
        { accountId: (await addAccount(t, org, 'threads')).id, platformSpecificData: { mediaUrls: [media('/a.jpg'), media('/c.mp4'), media('/b.jpg')], altTexts: ['one', null, 'three'] } },
      ], 'Threads hello');
      const post = await settled(t, key, text);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const creates = journal('graph.threads.net', start).filter((e) => e.method === 'POST' && e.path.endsWith('/threads')).map((e) => e.body as Record<string, string>);
      const pick = (b: Record<string, string>) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'access_token'));
      assert.deepEqual(creates.map(pick), [
        { media_type: 'TEXT', text: 'Threads hello', link_attachment: 'https://example.com/l', reply_control: 'mentioned_only', topic_tag: 'sandbox' },
        { media_type: 'TEXT', text: 'first!', reply_to_id: post.targets[0]?.platformPostId ?? '' },
        { media_type: 'IMAGE', image_url: media('/a.jpg'), alt_text: 'an image', text: 'Threads hello' },
        { media_type: 'VIDEO', video_url: media('/c.mp4'), text: 'Threads hello' },
        { media_type: 'IMAGE', image_url: media('/a.jpg'), alt_text: 'one', is_carousel_item: 'true' },
        { media_type: 'VIDEO', video_url: media('/c.mp4'), is_carousel_item: 'true' },
        { media_type: 'IMAGE', image_url: media('/b.jpg'), alt_text: 'three', is_carousel_item: 'true' },
        { media_type: 'CAROUSEL', children: creates[7]?.children ?? '', text: 'Threads hello' },
      ]);
      assert.equal(creates[7]?.children?.split(',').length, 3);
      const publishes = journal('graph.threads.net', start).filter((e) => e.path.endsWith('/threads_publish') && e.status === 200);
      assert.equal(publishes.length, 5, 'each post and the first comment published once');
      for (const target of post.targets) assert.ok((target.url ?? '').startsWith(`${t.url}/sandbox/www.threads.net/@`), target.url ?? 'no url');
      const reply = [...t.sandbox.threads.posts.values()].find((p) => p.text === 'first!');
      assert.equal(reply?.replyToId, post.targets[0]?.platformPostId);
    });

    test('threads: threadItems publish as a reply chain that replaces the content', async () => {
      const start = mark();
      const id = await publishNow([{ accountId: (await addAccount(t, org, 'threads')).id, platformSpecificData: { threadItems: [{ content: 'one' }, { content: 'two', mediaUrl: media('/a.jpg') }, { content: 'three' }], topicTag: 'chain' } }], 'ignored');
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const creates = journal('graph.threads.net', start).filter((e) => e.method === 'POST' && e.path.endsWith('/threads')).map((e) => e.body as Record<string, string>);
      assert.deepEqual(creates.map((b) => [b.text, b.media_type, b.topic_tag, Boolean(b.reply_to_id)]), [
        ['one', 'TEXT', 'chain', false],
        ['two', 'IMAGE', undefined, true],
        ['three', 'TEXT', undefined, true],
      ]);
      const chain = [...t.sandbox.threads.posts.values()].filter((p) => ['one', 'two', 'three'].includes(p.text ?? ''));
      const byText = new Map(chain.map((p) => [p.text, p]));
      assert.equal(byText.get('two')?.replyToId, byText.get('one')?.id);
      assert.equal(byText.get('three')?.replyToId, byText.get('two')?.id);
      assert.equal(post.targets[0]?.platformPostId, byText.get('one')?.id);
    });

    test('threads: a chain refused part way, published again, goes on after its published posts: each post once', async () => {
      const items = ['uno', 'dos', 'tres'].map((c) => `${c} ${dialect}`);
      // The second container is refused (a permanent Graph error): the first post is live, the target fails.
      t.sandbox.faults.add({ host: 'graph.threads.net', path: '/**/threads', method: 'POST', kind: 'error', status: 400, code: 100, message: 'Invalid parameter', times: 1, after: 1 });
      const id = await publishNow([{ accountId: (await addAccount(t, org, 'threads')).id, platformSpecificData: { threadItems: items.map((content) => ({ content })) } }], 'ignored');
      const failed = await settled(t, key, id);
      assert.equal(failed.targets[0]?.status, 'failed', JSON.stringify(failed.targets[0]));
      const posted = () => [...t.sandbox.threads.posts.values()].filter((p) => items.includes(p.text ?? ''));
      assert.deepEqual(posted().map((p) => p.text), [items[0]]);
      const again = await t.request(`/api/v1/posts/${id}/publish`, { key, method: 'POST' });
      assert.equal(again.status, 200, await again.clone().text());
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(posted().map((p) => p.text).sort(), [...items].sort(), 'each post once');
      const [one, two] = items.map((text) => posted().find((p) => p.text === text));
      assert.equal(post.targets[0]?.platformPostId, one?.id);
      assert.equal(two?.replyToId, one?.id, 'the chain goes on under the first post');
    });

    test('tiktok: video and photo posts pulled from URL after creator_info, then status to completion', async () => {
      const start = mark();
      const id = await publishNow([
        { accountId: (await addAccount(t, org, 'tiktok')).id, platformSpecificData: { privacyLevel: 'SELF_ONLY', mediaUrl: media('/c.mp4'), disableComment: false, isAigc: true } },
        { accountId: (await addAccount(t, org, 'tiktok')).id, platformSpecificData: { privacyLevel: 'SELF_ONLY', mediaType: 'image', mediaUrls: [media('/a.jpg'), media('/p.webp')], title: 'Photos', autoAddMusic: true, photoCoverIndex: 1 } },
      ], 'TikTok caption #sandbox');
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const calls = journal('open.tiktokapis.com', start);
      const paths = calls.map((e) => e.path);
      assert.equal(paths[0], '/v2/post/publish/creator_info/query/');
      const video = calls.find((e) => e.path === '/v2/post/publish/video/init/')?.body;
      assert.deepEqual(video, {
        post_info: { privacy_level: 'SELF_ONLY', disable_comment: false, brand_content_toggle: false, brand_organic_toggle: false, title: 'TikTok caption #sandbox', disable_duet: true, disable_stitch: true, is_aigc: true },
        source_info: { source: 'PULL_FROM_URL', video_url: media('/c.mp4') },
      });
      const photo = calls.find((e) => e.path === '/v2/post/publish/content/init/')?.body;
      assert.deepEqual(photo, {
        post_info: { privacy_level: 'SELF_ONLY', disable_comment: true, brand_content_toggle: false, brand_organic_toggle: false, title: 'Photos', description: 'TikTok caption #sandbox', auto_add_music: true },
        source_info: { source: 'PULL_FROM_URL', photo_images: [media('/a.jpg'), media('/p.webp')], photo_cover_index: 1 },
        post_mode: 'DIRECT_POST',
        media_type: 'PHOTO',
      });
      assert.ok(paths.filter((p) => p.endsWith('/status/fetch/')).length >= 2, 'status was polled until complete');
      for (const target of post.targets) assert.match(target.platformPostId ?? '', /^[vp]_pub_url~v2\.\d+$/, 'SELF_ONLY posts keep the publish id');
    });

    test('tiktok: settings the creator does not allow fail at once with a clear message', async () => {
      const strict = await addAccount(t, org, 'tiktok', { tiktok: { commentDisabled: true } });
      const id = await publishNow([
        { accountId: strict.id, platformSpecificData: { privacyLevel: 'SELF_ONLY', mediaUrl: media('/c.mp4'), disableComment: false } },
        { accountId: (await addAccount(t, org, 'tiktok')).id, platformSpecificData: { privacyLevel: 'PUBLIC_TO_EVERYONE', mediaUrl: media('/c.mp4') } },
      ]);
      const post = await settled(t, key, id);
      assert.equal(post.status, 'failed');
      assert.match(post.targets[0]?.error ?? '', /disableComment: false is not possible/);
      assert.match(post.targets[1]?.error ?? '', /privacyLevel PUBLIC_TO_EVERYONE is not one of this creator's options \(FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY\)/);
      assert.deepEqual(post.targets.map((x) => x.attempts), [1, 1]);
    });

    test('targets start in the order of platforms', async () => {
      const start = mark();
      const id = await publishNow([
        { accountId: (await addAccount(t, org, 'tiktok')).id, platformSpecificData: { privacyLevel: 'SELF_ONLY', mediaUrl: media('/c.mp4') } },
        { accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } },
        { accountId: (await addAccount(t, org, 'threads')).id },
      ]);
      await settled(t, key, id);
      const firstCall = (host: string) => journal(host, start)[0]?.seq ?? Infinity;
      const order = ['open.tiktokapis.com', 'oauth.reddit.com', 'graph.threads.net'].map(firstCall);
      assert.deepEqual([...order].sort((a, b) => a - b), order);
    });

    test('a post left unsettled after its last target was recorded settles when that target\'s job runs again', async () => {
      const id = await publishNow([{ accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } }]);
      assert.equal((await settled(t, key, id)).status, 'published');
      // As if the run had died between recording the target and settling the post (PostgreSQL
      // records a first attempt that releases another target without the post's lock).
      const { db } = t.runtime.deps.store;
      await db.updateTable('posts').set({ status: 'publishing' }).where('id', '=', id).execute();
      const before = (await events(id)).filter((e) => e.type === 'post.published').length;
      const targetId = (await getPost(t, key, id)).targets[0]?.id ?? '';
      await enqueue(db, t.runtime.deps.store, clock.now(), postDeliver, { targetId, dueAt: 0 });
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published');
      assert.equal((await events(id)).filter((e) => e.type === 'post.published').length, before + 1, 'post.published once more');
    });

    test('transient failures are retried on the schedule, then succeed; attempts are counted', async () => {
      t.sandbox.faults.add({ host: 'oauth.reddit.com', path: '/api/submit', kind: 'server_error', status: 503, times: 2 });
      const id = await publishNow([{ accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } }]);
      const targetId = (await getPost(t, key, id)).targets[0]?.id ?? '';
      const delays: number[] = [];
      for (const attempt of [1, 2]) {
        const row = await waitFor(async () => {
          const r = await targetRow(targetId);
          return r.attempts === attempt && r.status === 'pending' && r.next_attempt_at !== null ? r : null;
        });
        delays.push((row.next_attempt_at ?? 0) - row.updated_at);
        assert.match(row.error ?? '', /HTTP 503/);
        assert.equal((await getPost(t, key, id)).status, 'publishing');
        clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1;
        t.worker?.wake();
      }
      const post = await settled(t, key, id);
      assert.equal(post.status, 'published');
      assert.equal(post.targets[0]?.attempts, 3);
      assert.equal(post.targets[0]?.error, null);
      assert.ok(delays[0] !== undefined && delays[0] >= 24_000 && delays[0] <= 36_000, `first retry after about 30 s (${delays[0]})`);
      assert.ok(delays[1] !== undefined && delays[1] >= 96_000 && delays[1] <= 144_000, `second after about 2 min (${delays[1]})`);
    });

    test('a target that keeps failing gives up after 6 attempts; the next target is not held back', async () => {
      t.sandbox.faults.add({ host: 'graph.threads.net', path: '/*/threads', method: 'POST', kind: 'server_error', status: 500, times: 6 });
      const start = mark();
      const id = await publishNow([{ accountId: (await addAccount(t, org, 'threads')).id }, { accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } }]);
      const [first, second] = (await getPost(t, key, id)).targets;
      await waitFor(async () => (await targetRow(second?.id ?? '')).status === 'published', 5000, 'the second target, while the first waits for its retry');
      for (let attempt = 1; attempt <= 5; attempt++) {
        const row = await waitFor(async () => {
          const r = await targetRow(first?.id ?? '');
          return r.attempts === attempt && r.status === 'pending' ? r : null;
        });
        clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1;
        t.worker?.wake();
      }
      const post = await settled(t, key, id);
      assert.equal(post.status, 'partial');
      assert.equal(post.targets[0]?.status, 'failed');
      assert.equal(post.targets[0]?.attempts, 6);
      assert.equal(journal('graph.threads.net', start).length, 6);
      assert.deepEqual((await events(id)).map((e) => [e.type, JSON.parse(e.data) as unknown]), [['post.failed', { postId: id, status: 'partial' }]]);
    });

    test('a permanent failure fails the target at once with the platform message; a disconnected account fails as reconnect_required', async () => {
      const id = await publishNow([
        { accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'nope_not_here' } },
        { accountId: (await addAccount(t, org, 'reddit', { status: 'needs_reconnect' })).id, platformSpecificData: { subreddit: 'sandbox' } },
      ]);
      const post = await settled(t, key, id);
      assert.equal(post.status, 'failed');
      assert.equal(post.targets[0]?.error, "SUBREDDIT_NOEXIST: that subreddit doesn't exist (sr)");
      assert.match(post.targets[1]?.error ?? '', /^reconnect_required/);
      assert.deepEqual(post.targets.map((x) => [x.status, x.attempts]), [['failed', 1], ['failed', 1]]);
      assert.deepEqual((await events(id)).map((e) => JSON.parse(e.data) as unknown), [{ postId: id, status: 'failed' }]);
      // The target that never called keeps no marker of its claim (publishing it again must
      // not wait to reconcile a call that was never made).
      assert.doesNotMatch((await targetRow(post.targets[1]?.id ?? '')).progress, /inflight/);
    });

    test('an expired token fails the target as reconnect_required without retrying', async () => {
      const acc = await addAccount(t, org, 'tiktok');
      t.sandbox.expireToken(acc.token);
      const post = await settled(t, key, await publishNow([{ accountId: acc.id, platformSpecificData: { privacyLevel: 'SELF_ONLY', mediaUrl: media('/c.mp4') } }]));
      assert.match(post.targets[0]?.error ?? '', /^reconnect_required: access_token_invalid/);
      assert.equal(post.targets[0]?.attempts, 1);
    });

    // PostgreSQL queues up to four deliveries in the statement that settles the post, and leaves
    // an organization with more to a transaction of its own (closing.ts): both reach everyone.
    test('the post\'s event reaches every endpoint that takes it, with one endpoint and with five', async () => {
      const receiver = await new Receiver().start();
      try {
        const tenant = await t.tenant();
        const hook = (events: string[]) => t.request('/api/v1/webhooks', { key: tenant.key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events }) });
        const publish = async () => {
          const res = await createPost(t, tenant.key, { content: 'Heard\nby every endpoint', publishNow: true, platforms: [{ accountId: (await addAccount(t, tenant.organizationId, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } }] });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          assert.equal((await settled(t, tenant.key, res.body.post.id)).status, 'published');
          return res.body.post.id;
        };
        assert.equal((await hook(['post.published'])).status, 201);
        assert.equal((await hook(['post.failed'])).status, 201);
        const first = await publish();
        const [one] = await receiver.waitFor(1);
        assert.ok(one?.body.includes(`"event":"post.published"`) && one.body.includes(`"data":{"postId":"${first}","status":"published"}`), one?.body);
        for (let i = 0; i < 4; i++) assert.equal((await hook(['post.published', 'post.failed'])).status, 201);
        const second = await publish();
        const five = (await receiver.waitFor(6)).slice(1);
        for (const received of five) assert.ok(received.body.includes(`"data":{"postId":"${second}","status":"published"}`), received.body);
        assert.equal(new Set(five.map((r) => (JSON.parse(r.body) as { id: string }).id)).size, 1, 'one event');
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(receiver.received.length, 6, 'nothing for the endpoint that takes post.failed only');
      } finally {
        await receiver.stop();
      }
    });

    // The statement that records a last target reads the others in its snapshot, taken before
    // it could wait for the post: a writer holding the post, or one that changed it meanwhile,
    // leaves the outcome to the transaction, which reads after the lock (closing.ts).
    test('a target that ends while another writer holds its post is recorded after it, and sees its change', { skip: dialect === 'sqlite' && 'SQLite writes one at a time' }, async () => {
      t.sandbox.faults.add({ host: 'graph.threads.net', path: '/*/threads', method: 'POST', kind: 'server_error', status: 500 });
      t.sandbox.faults.add({ host: 'oauth.reddit.com', path: '/api/submit', kind: 'delay', delayMs: 1500 });
      const start = mark();
      const id = await publishNow([{ accountId: (await addAccount(t, org, 'threads')).id }, { accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } }]);
      const [first, second] = (await getPost(t, key, id)).targets;
      // The first target waits for its retry; the second has started (its start writes the post,
      // so it must not wait for the writer below) and is in its slow call.
      await waitFor(async () => (await targetRow(first?.id ?? '')).status === 'pending' && (await targetRow(first?.id ?? '')).attempts === 1);
      await waitFor(async () => (await targetRow(second?.id ?? '')).status === 'publishing', 5000, 'the second target to start');
      const { db } = t.runtime.deps.store;
      let commit = () => {};
      const held = new Promise<void>((resolve) => (commit = resolve));
      let holding = () => {};
      const holds = new Promise<void>((resolve) => (holding = resolve));
      // Another writer (the first target's last retry, say) fails the first target under the post's lock.
      const writer = db.transaction().execute(async (trx) => {
        await trx.updateTable('posts').set({ updated_at: Date.now() }).where('id', '=', id).execute();
        await trx.updateTable('post_targets').set({ status: 'failed', error: 'given up', next_attempt_at: null }).where('id', '=', first?.id ?? '').execute();
        holding();
        await held;
      });
      await holds;
      try {
        await waitFor(() => journal('oauth.reddit.com', start).some((e) => e.path === '/api/submit'), 5000, 'the second target\'s submit');
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.equal((await getPost(t, key, id)).status, 'publishing', 'not settled while the writer holds the post');
      } finally {
        commit();
        await writer;
      }
      const post = await settled(t, key, id);
      assert.equal(post.status, 'partial');
      assert.deepEqual(post.targets.map((target) => target.status), ['failed', 'published']);
      assert.deepEqual((await events(id)).map((e) => [e.type, JSON.parse(e.data) as unknown]), [['post.failed', { postId: id, status: 'partial' }]]);
    });

    // PostgreSQL dispatches the posts that fall due together in shared statements (release.ts).
    test('posts falling due together are each dispatched once; one deleted before its time is not', async () => {
      const acc = await addAccount(t, org, 'reddit');
      const at = new Date(clock.now() + 1500).toISOString();
      const start = mark();
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await createPost(t, key, { content: `Together ${i}`, scheduledFor: at, platforms: [{ accountId: acc.id, platformSpecificData: { subreddit: 'sandbox' } }] });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ids.push(res.body.post.id);
      }
      const [gone, ...kept] = ids;
      assert.equal((await t.request(`/api/v1/posts/${gone ?? ''}`, { key, method: 'DELETE' })).status, 200);
      for (const id of kept) assert.equal((await settled(t, key, id)).status, 'published');
      const titles = journal('oauth.reddit.com', start)
        .filter((e) => e.path === '/api/submit')
        .map((e) => (e.body as { title: string }).title);
      assert.deepEqual(titles.toSorted(), Array.from({ length: 29 }, (_, i) => `Together ${i + 1}`).toSorted());
    });

    test('a post scheduled 300 ms ahead reaches the platform within a second of its time', async () => {
      const acc = await addAccount(t, org, 'reddit');
      const at = clock.now() + 300;
      const start = mark();
      const res = await createPost(t, key, { content: 'On time', scheduledFor: new Date(at).toISOString(), platforms: [{ accountId: acc.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      assert.equal(res.body.post.status, 'scheduled');
      const entry = await waitFor(() => journal('oauth.reddit.com', start).find((e) => e.path === '/api/submit'), 3000, 'the submit');
      const lag = Date.parse(entry.at) - t.sandbox.clock.offset() - (at - clock.offset);
      assert.ok(lag >= 0 && lag < 1000, `started ${lag} ms after scheduledFor`);
      assert.equal((await settled(t, key, res.body.post.id)).status, 'published');
    });
    test('a container flow resumes from its saved container in another worker: one container, one publish', async () => {
      t.sandbox.updateSettings({ processing: { threadsMediaMs: 60_000 } });
      const start = mark();
      const id = await publishNow([{ accountId: (await addAccount(t, org, 'threads')).id, platformSpecificData: { mediaUrl: media('/c.mp4') } }]);
      const targetId = (await getPost(t, key, id)).targets[0]?.id ?? '';
      const saved = await waitFor(async () => {
        const row = await targetRow(targetId);
        const progress = JSON.parse(row.progress) as { units?: Array<{ container?: string }> };
        return row.status === 'publishing' && progress.units?.[0]?.container ? progress.units[0].container : null;
      });
      await t.worker?.stop();
      const deps = t.runtime.deps;
      const second = new Worker({ store: deps.store, registry: buildJobRegistry(deps), clock, log: createLogger('silent'), ...t.config.jobs });
      second.start();
      try {
        t.sandbox.clock.advance(61_000);
        t.sandbox.updateSettings({ processing: { threadsMediaMs: 100 } });
        const row = await targetRow(targetId);
        clock.offset += Math.max(0, (row.next_attempt_at ?? 0) - clock.now()) + 1;
        second.wake();
        const post = await settled(t, key, id);
        assert.equal(post.status, 'published');
        const calls = journal('graph.threads.net', start);
        assert.equal(calls.filter((e) => e.method === 'POST' && e.path.endsWith('/threads')).length, 1, 'one container');
        assert.equal(calls.filter((e) => e.path.endsWith('/threads_publish')).length, 1, 'one publish');
        assert.ok(calls.some((e) => e.path.endsWith(`/${saved}`)), 'the saved container was checked');
      } finally {
        await second.stop();
      }
    });

  });
}
