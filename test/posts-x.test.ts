// x delivery against the sandbox over HTTP, on both stores (DESIGN "More platforms", the x
// table): text, two images with alt texts through the chunked upload, a video waiting for its
// processing, a GIF, a poll with reply settings and disclosures, a quote, a reply chain of
// threadItems with a first comment; each asserted on the request that reached the sandbox. Every
// rule of the table is a 400 naming the field; other platforms' keys are warnings. A refusal by X
// fails the target with X's words; a 429 waits for x-rate-limit-reset.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/lib/ids.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { createPost, settled, startPostsApp, ShiftClock, type PostsApp } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

for (const dialect of DIALECTS) {
  describe(`posts to x [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ShiftClock();
    const media = (path: string) => `${files.url}${path}`;

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      t.sandbox.updateSettings({ processing: { xVideoMs: 100 } });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.png': { body: samples.png }, '/c.mp4': { body: samples.mp4 }, '/d.gif': { body: samples.gif } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const calls = (after: number, path: string, method = 'POST') => t.sandbox.journal.list({ host: 'api.x.com', after, method }).filter((e) => e.path === path || (path.includes('*') && new RegExp(`^${path.replace(/\*/g, '[^/]+')}$`).test(e.path)));
    const tweets = (after: number) => calls(after, '/2/tweets').map((e) => e.body as Record<string, unknown>);
    const publish = async (accountId: string, platformSpecificData: Record<string, unknown>, content = `Fresh bread ${newId('post').slice(-6)}`) => {
      const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId, platformSpecificData }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      return { post, target: post.targets[0], content };
    };

    test('text: POST /2/tweets with the text; the target has the id and the x.com link', async () => {
      const acc = await addXAccount(t, org);
      const start = mark();
      const { post, target, content } = await publish(acc.id, {});
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(tweets(start), [{ text: content }]);
      const entry = calls(start, '/2/tweets')[0];
      assert.match(entry?.headers.authorization ?? '', /^Bearer /);
      assert.match(target?.platformPostId ?? '', /^\d{19}$/);
      assert.ok(target?.url?.endsWith(`/x.com/${acc.username}/status/${target.platformPostId ?? ''}`), target?.url ?? '');
      const page = await fetch(target?.url ?? '');
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Fresh bread/);
    });

    test('two images with alt texts: chunked upload each, alt text by /2/media/metadata, both ids in the post', async () => {
      const acc = await addXAccount(t, org);
      const start = mark();
      const { post, target } = await publish(acc.id, { mediaUrls: [media('/a.jpg'), media('/b.png')], altTexts: ['A loaf', null] });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const inits = calls(start, '/2/media/upload/initialize').map((e) => e.body as Record<string, unknown>);
      assert.deepEqual(inits.map((b) => [b.media_type, b.media_category, b.total_bytes]), [['image/jpeg', 'tweet_image', samples.jpeg.length], ['image/png', 'tweet_image', samples.png.length]]);
      assert.equal(calls(start, '/2/media/upload/*/append').length, 2);
      assert.equal(calls(start, '/2/media/upload/*/finalize').length, 2);
      const alts = calls(start, '/2/media/metadata').map((e) => e.body as { metadata: { alt_text: { text: string } } });
      assert.deepEqual(alts.map((a) => a.metadata.alt_text.text), ['A loaf']);
      const [body] = tweets(start);
      const ids = (body?.media as { media_ids: string[] }).media_ids;
      assert.equal(ids.length, 2);
      const stored = t.sandbox.x.posts.get(target?.platformPostId ?? '');
      assert.deepEqual(stored?.mediaIds, ids);
      assert.equal(t.sandbox.x.media.get(ids[0] ?? '')?.altText, 'A loaf');
    });

    test('a video waits for its processing (STATUS polled) before the post; a GIF goes as tweet_gif', async () => {
      const acc = await addXAccount(t, org);
      const start = mark();
      const { post } = await publish(acc.id, { mediaUrl: media('/c.mp4') });
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(calls(start, '/2/media/upload/initialize').map((e) => (e.body as Record<string, unknown>).media_category), ['tweet_video']);
      const statuses = calls(start, '/2/media/upload', 'GET');
      assert.ok(statuses.length >= 1 && statuses.every((e) => e.query.command === 'STATUS'), JSON.stringify(statuses.map((e) => e.query)));
      const lastStatus = statuses.at(-1)?.seq ?? 0;
      assert.ok((calls(start, '/2/tweets')[0]?.seq ?? 0) > lastStatus, 'the post came after the last STATUS');
      const gif = await publish(acc.id, { mediaUrl: media('/d.gif'), altText: 'A moving loaf' });
      assert.equal(gif.post.status, 'published', JSON.stringify(gif.post));
      assert.ok(calls(start, '/2/media/upload/initialize').some((e) => (e.body as Record<string, unknown>).media_category === 'tweet_gif'));
    });

    test('a poll with reply settings and disclosures; a quote of it', async () => {
      const acc = await addXAccount(t, org);
      const start = mark();
      const { post, target, content } = await publish(acc.id, { poll: { options: ['Rye', 'Spelt'], durationMinutes: 60 }, replySettings: 'following', madeWithAi: true, paidPartnership: false });
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(tweets(start), [{ text: content, poll: { options: ['Rye', 'Spelt'], duration_minutes: 60 }, reply_settings: 'following', made_with_ai: true, paid_partnership: false }]);
      const quoteStart = mark();
      const quote = await publish(acc.id, { quoteTweetId: target?.platformPostId });
      assert.equal(quote.post.status, 'published', JSON.stringify(quote.post));
      assert.equal(tweets(quoteStart)[0]?.quote_tweet_id, target?.platformPostId);
    });

    test('threadItems make a reply chain, with media on an item; the first comment replies to the first post', async () => {
      const acc = await addXAccount(t, org);
      const start = mark();
      const stamp = newId('post').slice(-6);
      const { post, target } = await publish(acc.id, {
        threadItems: [{ content: `One ${stamp}` }, { content: `Two ${stamp}`, mediaUrls: [media('/a.jpg')], altTexts: ['Crumb'] }, { content: `Three ${stamp}` }],
        firstComment: `Order at the link ${stamp}`,
      }, 'ignored');
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(target?.warnings.map((w) => w.key), ['content']);
      const bodies = tweets(start);
      assert.deepEqual(bodies.map((b) => b.text), [`One ${stamp}`, `Two ${stamp}`, `Three ${stamp}`, `Order at the link ${stamp}`]);
      const ids = [...t.sandbox.x.posts.values()].filter((p) => p.authorId === acc.userId).map((p) => p.id);
      const [one, two] = ids;
      assert.equal(target?.platformPostId, one);
      assert.deepEqual(bodies.map((b) => (b.reply as { in_reply_to_tweet_id?: string } | undefined)?.in_reply_to_tweet_id), [undefined, one, two, one]);
      assert.equal((bodies[1]?.media as { media_ids: string[] }).media_ids.length, 1);
    });

    test('without X_READS post analytics make no X call and say which setting turns them on; publishing-limit is not offered', async () => {
      const acc = await addXAccount(t, org);
      const { post } = await publish(acc.id, {});
      const start = mark();
      const read = await t.request(`/api/v1/analytics/posts/${post.id}?refresh=1`, { key });
      assert.equal(read.status, 200, await read.clone().text());
      const [target] = ((await read.json()) as { targets: Array<{ metrics: Record<string, number>; errors: Array<{ message: string }> }> }).targets;
      assert.deepEqual(target?.metrics, {});
      assert.match(target?.errors[0]?.message ?? '', /X_READS=1/);
      assert.equal(t.sandbox.journal.list({ host: 'api.x.com', after: start }).length, 0);
      const limit = await t.request(`/api/v1/accounts/${acc.id}/publishing-limit`, { key });
      assert.equal(limit.status, 400);
    });

    test('edit within 30 minutes: a new post on X whose id and link the target takes; polls and late edits are refused', async () => {
      const acc = await addXAccount(t, org);
      const { post, target } = await publish(acc.id, {});
      const oldId = target?.platformPostId ?? '';
      const edit = (id: string, content: string) => t.request(`/api/v1/posts/${id}/edit`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content }) });
      const res = await edit(post.id, 'Fresh bread, edited');
      assert.equal(res.status, 200, await res.clone().text());
      const [changed] = ((await res.json()) as { targets: Array<{ platformPostId: string }> }).targets;
      assert.ok(changed && changed.platformPostId !== oldId);
      const after = (await settled(t, key, post.id)).targets[0];
      assert.equal(after?.platformPostId, changed.platformPostId);
      assert.ok(after?.url?.endsWith(`/status/${changed.platformPostId}`), after?.url ?? '');
      assert.deepEqual(t.sandbox.x.posts.get(changed.platformPostId)?.editHistory, [oldId, changed.platformPostId]);
      const poll = await publish(acc.id, { poll: { options: ['a', 'b'], durationMinutes: 60 } });
      assert.equal((await edit(poll.post.id, 'no')).status, 400);
      // X's clock decides the edit window.
      t.sandbox.clock.advance(31 * 60_000);
      const late = await edit(post.id, 'too late');
      assert.equal(late.status, 400);
      assert.match(((await late.json()) as { error: { message: string } }).error.message, /30-minute edit window/);
    });

    test('every rule is a 400 naming the field; other platforms’ keys are warnings', async () => {
      const acc = await addXAccount(t, org);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{}, 'a'.repeat(281), 'platforms[0].content: 281 weighted characters, X allows 280'],
        [{}, `${'漢'.repeat(130)} https://example.com/${'p'.repeat(50)}`, 'platforms[0].content: 284 weighted characters, X allows 280'],
        [{}, '', 'platforms[0].content: required for an x post without media'],
        [{ mediaUrls: [media('/a.jpg'), media('/c.mp4')] }, 'x', 'platforms[0].platformSpecificData.mediaUrls: X takes up to 4 images, or 1 video, or 1 GIF; no mixing'],
        [{ mediaUrls: Array(5).fill(media('/a.jpg')) }, 'x', 'platforms[0].platformSpecificData.mediaUrls: X takes up to 4 images, or 1 video, or 1 GIF'],
        [{ mediaUrl: media('/c.mp4'), altText: 'no' }, 'x', 'platforms[0].platformSpecificData.altText: alt text is for images and GIFs, not videos'],
        [{ mediaUrl: media('/a.jpg'), altText: 'a'.repeat(1001) }, 'x', 'platforms[0].platformSpecificData.altText: must have at most 1000 characters'],
        [{ mediaUrls: [media('/a.jpg')], altTexts: ['a', 'b'] }, 'x', 'platforms[0].platformSpecificData.altTexts: must give one per media item (1)'],
        [{ poll: { options: ['a'], durationMinutes: 60 } }, 'x', 'platforms[0].platformSpecificData.poll.options: must have 2 to 4 options'],
        [{ poll: { options: ['a', 'b'.repeat(26)], durationMinutes: 60 } }, 'x', 'platforms[0].platformSpecificData.poll.options[1]: must have 1 to 25 characters'],
        [{ poll: { options: ['a', 'b'], durationMinutes: 4 } }, 'x', 'platforms[0].platformSpecificData.poll.durationMinutes: must be a whole number of minutes from 5 to 10080'],
        [{ poll: { options: ['a', 'b'], durationMinutes: 60 }, mediaUrl: media('/a.jpg') }, 'x', 'platforms[0].platformSpecificData.poll: a poll cannot go with media'],
        [{ poll: { options: ['a', 'b'], durationMinutes: 60 }, quoteTweetId: '123' }, 'x', 'platforms[0].platformSpecificData.poll: a poll cannot go with quoteTweetId'],
        [{ quoteTweetId: 'abc' }, 'x', 'platforms[0].platformSpecificData.quoteTweetId: must be the id of a post (1 to 19 digits)'],
        [{ replySettings: 'nobody' }, 'x', 'platforms[0].platformSpecificData.replySettings: must be one of everyone, following, mentionedUsers, subscribers, verified'],
        [{ threadItems: [] }, 'x', 'platforms[0].platformSpecificData.threadItems: must have 1 to 25 items'],
        [{ threadItems: [{ content: 'ok' }, { content: '🙂'.repeat(141) }] }, 'x', 'platforms[0].platformSpecificData.threadItems[1].content: 282 weighted characters, X allows 280 (a URL counts 23, CJK and emoji 2)'],
        [{ threadItems: [{ content: 'ok', mediaUrls: [media('/c.mp4'), media('/d.gif')] }] }, 'x', 'platforms[0].platformSpecificData.threadItems[0].mediaUrls: X takes up to 4 images, or 1 video, or 1 GIF; no mixing'],
        [{ firstComment: 'é'.repeat(281) }, 'x', 'platforms[0].platformSpecificData.firstComment: 281 weighted characters, X allows 280 (a URL counts 23, CJK and emoji 2)'],
        [{ madeWithAi: 'yes' }, 'x', 'platforms[0].platformSpecificData.madeWithAi: must be a boolean'],
        // X refuses a post with the text of one of the account's recent posts: the chain would stop halfway.
        [{ threadItems: [{ content: 'Same' }, { content: 'Other' }, { content: 'Same' }] }, 'x', 'platforms[0].platformSpecificData.threadItems[2].content: the same text as threadItems[0].content; X refuses a post that repeats a recent one'],
        [{ firstComment: 'Look' }, 'Look', 'platforms[0].platformSpecificData.firstComment: the same text as content; X refuses a post that repeats a recent one'],
        [{ threadItems: [{ content: 'One' }, { content: 'Two' }], firstComment: 'One' }, 'x', 'platforms[0].platformSpecificData.firstComment: the same text as threadItems[0].content; X refuses a post that repeats a recent one'],
      ];
      for (const [data, content, message] of cases) {
        const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: data }] });
        assert.equal(res.status, 400, `${JSON.stringify(data)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error?.message.startsWith(message), true, `${res.body.error?.message ?? ''} ≠ ${message}`);
      }
      const warned = await createPost(t, key, { content: 'draft', platforms: [{ accountId: acc.id, platformSpecificData: { subreddit: 'sandbox', topicTag: 'baking' } }] });
      assert.equal(warned.status, 201, JSON.stringify(warned.body));
      assert.deepEqual(warned.body.post.targets[0]?.warnings.map((w) => w.key).sort(), ['subreddit', 'topicTag']);
    });

    test('X refusing the post fails the target with its words; a 429 waits for x-rate-limit-reset and then publishes', async () => {
      const acc = await addXAccount(t, org);
      const first = await publish(acc.id, {}, 'The same words twice');
      assert.equal(first.post.status, 'published');
      const again = await publish(acc.id, {}, 'The same words twice');
      assert.equal(again.post.status, 'failed');
      assert.match(again.target?.error ?? '', /duplicate content/);

      t.sandbox.updateSettings({ x: { postsPer15Min: 0 } });
      try {
        const res = await createPost(t, key, { content: `Limited ${newId('post').slice(-6)}`, publishNow: true, platforms: [{ accountId: acc.id }] });
        const id = res.body.post.id;
        // The 429 came with the window's end (15 minutes on): the retry is due then, not on the 30-second backoff.
        const row = await waitFor(async () => {
          const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('post_id', '=', id).executeTakeFirstOrThrow();
          return r.attempts >= 1 && r.next_attempt_at !== null && r.next_attempt_at - clock.now() > 60_000 ? r : null;
        }, 10_000, 'the retry after the 429');
        assert.ok(t.sandbox.journal.list({ host: 'api.x.com', path: '/2/tweets' }).some((e) => e.status === 429), 'X answered 429');
        assert.ok((row.next_attempt_at ?? 0) - clock.now() > 10 * 60_000, `retry ${String((row.next_attempt_at ?? 0) - clock.now())} ms on`);
        t.sandbox.updateSettings({ x: { postsPer15Min: 100 } });
        clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1000;
        const done = await settled(t, key, id);
        assert.equal(done.status, 'published', JSON.stringify(done));
      } finally {
        t.sandbox.updateSettings({ x: { postsPer15Min: 100 } });
      }
    });
  });
}
