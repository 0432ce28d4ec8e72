// bluesky delivery against the sandbox over HTTP, on both stores (DESIGN "More platforms", the
// bluesky table): every key as it reaches the PDS — facets at UTF-8 byte offsets (after emoji and
// accents), mentions resolved to DIDs (an unknown handle stays text), tags and links; langs and
// the content warning's self-label; images with their alt texts and aspect ratios, a large one
// downscaled under 1,000,000 bytes; a video through the video service; a link card with its
// thumbnail blob; a quote (with media: recordWithMedia); the thread gate under the post's key; a
// thread and the first comment as replies with root and parent refs. Every rule a 400 naming its
// field; unpublish deletes every record; comments-settings rewrites the gate; no editor.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { RepoRecord } from '../src/sandbox/bluesky/store.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { createPost, json, settled, startPostsApp, ShiftClock, type PostsApp } from './posts-support.ts';
import { connectBluesky, newBlueskyPerson, type SandboxBlueskyAccount } from './bluesky-support.ts';

type Body = Record<string, unknown>;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** The byte range of `part` in `text` (its first occurrence after `from`). */
const span = (text: string, part: string, from = 0) => {
  const at = text.indexOf(part, from);
  return { byteStart: bytes(text.slice(0, at)), byteEnd: bytes(text.slice(0, at)) + bytes(part) };
};

for (const dialect of DIALECTS) {
  describe(`posts to bluesky [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let person: SandboxBlueskyAccount;
    let accountId: string;
    let large: Buffer;
    const clock = new ShiftClock();
    const media = (path: string) => `${files.url}${path}`;

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      t.sandbox.updateSettings({ processing: { blueskyVideoMs: 100 } });
      // Noise does not compress: a 3000 × 2000 PNG of it is several megabytes.
      large = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
      const small = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c08040' } }).jpeg().toBuffer();
      files = await fileServer({ '/large.png': { body: large }, '/small.jpg': { body: small }, '/v.mp4': { body: Buffer.concat([samples.mp4, Buffer.alloc(20_000, 5)]) }, '/thumb.jpg': { body: small }, '/broken.jpg': { body: Buffer.concat([samples.jpeg.subarray(0, 3), Buffer.alloc(1_200_000, 7)]) } });
      ({ key } = await t.tenant());
      person = newBlueskyPerson(t.sandbox);
      accountId = await connectBluesky(t, key, person);
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const records = (collection = 'app.bsky.feed.post'): RepoRecord[] => [...t.sandbox.bluesky.records.values()].filter((r) => r.did === person.did && r.collection === collection);
    const recordOf = (uri: string | null | undefined): RepoRecord => {
      const found = t.sandbox.bluesky.records.get(uri ?? '');
      assert.ok(found, `no record ${uri ?? ''}`);
      return found;
    };
    const publish = async (content: string, platformSpecificData: Body) => {
      const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId, platformSpecificData }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id, undefined, 30_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const target = post.targets[0];
      assert.ok(target);
      return { post, target, record: recordOf(target.platformPostId) };
    };
    const send = (path: string, body: unknown) => t.request(path, { method: 'POST', key, headers: json, body: JSON.stringify(body) });

    test('a burst of posts falling due together for one account: each record under a key of its own, none refused as taken', async () => {
      const start = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const created = await Promise.all(Array.from({ length: 12 }, (_, i) => createPost(t, key, { content: `Burst ${i}`, publishNow: true, platforms: [{ accountId, platformSpecificData: {} }] })));
      const posts = await Promise.all(created.map((res) => settled(t, key, res.body.post.id, undefined, 30_000)));
      assert.deepEqual(posts.map((p) => p.status), Array(12).fill('published'));
      const creates = t.sandbox.journal.list({ after: start, host: 'bsky.social', path: '/xrpc/com.atproto.repo.createRecord' });
      assert.deepEqual(creates.map((e) => e.status), Array(12).fill(200), 'one createRecord each, none answered 500 for a taken key');
      assert.equal(new Set(posts.map((p) => p.targets[0]?.platformPostId)).size, 12);
    });

    test('text: links, mentions and tags as facets at UTF-8 byte offsets (after emoji and accents); langs and the content warning; the url', async () => {
      const text = 'Café ☕ 👩‍🍳 — new loaves at https://example.com/bread?x=1. Thanks @friend.bsky.social and @nobody.example.com! #sourdough #42 ok';
      const { target, record } = await publish(text, { langs: ['en', 'fr'], contentWarning: 'graphic-media' });
      const friend = [...t.sandbox.people.blueskyAccounts.values()].find((a) => a.handle === 'friend.bsky.social');
      assert.ok(friend);
      assert.equal(record.value.text, text);
      assert.deepEqual(record.value.facets, [
        { index: span(text, 'https://example.com/bread?x=1'), features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/bread?x=1' }] },
        { index: span(text, '@friend.bsky.social'), features: [{ $type: 'app.bsky.richtext.facet#mention', did: friend.did }] },
        { index: span(text, '#sourdough'), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'sourdough' }] },
      ]);
      assert.notEqual(span(text, '#sourdough').byteStart, text.indexOf('#sourdough'), 'byte offsets, not string indexes');
      assert.deepEqual(record.value.langs, ['en', 'fr']);
      assert.deepEqual(record.value.labels, { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'graphic-media' }] });
      assert.match(record.rkey, /^[234567abcdefghij][234567a-z]{12}$/);
      assert.equal(target.platformPostId, `at://${person.did}/app.bsky.feed.post/${record.rkey}`);
      assert.equal(target.url, `${t.url}/sandbox/bsky.app/profile/${person.handle}/post/${record.rkey}`);
      assert.deepEqual(records('app.bsky.feed.threadgate').filter((g) => g.rkey === record.rkey), [], 'everyone: no gate');
    });

    test('images: alt texts ("" when absent), aspect ratios, a large image downscaled to at most 1,000,000 bytes and 2000 px', async () => {
      const { record } = await publish('Two loaves', { mediaUrls: [media('/large.png'), media('/small.jpg')], altTexts: [null, 'A small loaf'] });
      const embed = record.value.embed as { $type: string; images: Array<{ image: { ref: { $link: string }; mimeType: string; size: number }; alt: string; aspectRatio: { width: number; height: number } }> };
      assert.equal(embed.$type, 'app.bsky.embed.images');
      assert.deepEqual(embed.images.map((i) => i.alt), ['', 'A small loaf']);
      const [big, small] = embed.images;
      assert.ok(big && small);
      assert.ok(large.length > 1_000_000);
      assert.equal(big.image.mimeType, 'image/jpeg');
      assert.ok(big.image.size <= 1_000_000, `downscaled to ${big.image.size} bytes`);
      assert.deepEqual(big.aspectRatio, { width: 2000, height: 1333 });
      assert.deepEqual(small.aspectRatio, { width: 640, height: 480 });
      assert.equal(small.image.mimeType, 'image/jpeg');
    });

    test('an image over 1,000,000 bytes that cannot be made smaller fails the target naming its field; nothing is posted', async () => {
      const text = `Broken ${dialect}`;
      const res = await createPost(t, key, { content: text, publishNow: true, platforms: [{ accountId, platformSpecificData: { mediaUrls: [media('/small.jpg'), media('/broken.jpg')] } }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id, undefined, 30_000);
      assert.equal(post.status, 'failed');
      assert.match(post.targets[0]?.error ?? '', /platformSpecificData\.mediaUrls\[1\]: the image stays over 1,000,000 bytes/);
      assert.deepEqual(records().filter((r) => r.value.text === text), []);
    });

    test('a video goes through the video service (service auth, limits, upload, job) and becomes the video embed with its alt text', async () => {
      const start = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const { record } = await publish('Shaping the loaf', { mediaUrl: media('/v.mp4'), altText: 'Hands shaping dough' });
      const embed = record.value.embed as { $type: string; video: { mimeType: string }; alt: string };
      assert.deepEqual([embed.$type, embed.video.mimeType, embed.alt], ['app.bsky.embed.video', 'video/mp4', 'Hands shaping dough']);
      const calls = t.sandbox.journal.list({ after: start });
      const auths = calls.filter((c) => c.path === '/xrpc/com.atproto.server.getServiceAuth').map((c) => [c.query.aud, c.query.lxm]);
      assert.deepEqual(auths, [['did:web:video.bsky.app', 'app.bsky.video.getUploadLimits'], ['did:web:bsky.social', 'com.atproto.repo.uploadBlob']]);
      assert.equal(calls.filter((c) => c.host === 'video.bsky.app' && c.path === '/xrpc/app.bsky.video.uploadVideo').length, 1);
      assert.ok(calls.some((c) => c.path === '/xrpc/app.bsky.video.getJobStatus'));

      // The same video in another post: the service answers already_exists naming a job with the earlier blob.
      const againStart = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const again = await publish('Shaping, once more', { mediaUrl: media('/v.mp4') });
      assert.deepEqual(t.sandbox.journal.list({ after: againStart }).filter((c) => c.path === '/xrpc/app.bsky.video.uploadVideo').map((c) => c.status), [409]);
      const second = again.record.value.embed as { video: { ref: { $link: string } } };
      assert.equal(second.video.ref.$link, (embed.video as unknown as { ref: { $link: string } }).ref.$link);
    });

    test('a link card with its thumbnail blob; a quote alone, and a quote with media as recordWithMedia', async () => {
      const { record } = await publish('Read the recipe', { linkCard: { url: 'https://example.com/recipe', title: 'Recipe', description: 'Flour, water, salt', thumbnailUrl: media('/thumb.jpg') } });
      const card = record.value.embed as { $type: string; external: { uri: string; title: string; description: string; thumb: { mimeType: string } } };
      assert.deepEqual([card.$type, card.external.uri, card.external.title, card.external.description, card.external.thumb.mimeType], ['app.bsky.embed.external', 'https://example.com/recipe', 'Recipe', 'Flour, water, salt', 'image/jpeg']);

      const quoted = await publish('Quote me', { quoteUri: record.uri });
      assert.deepEqual(quoted.record.value.embed, { $type: 'app.bsky.embed.record', record: { uri: record.uri, cid: record.cid } });
      const both = await publish('Quote with a photo', { quoteUri: record.uri, mediaUrl: media('/small.jpg') });
      const embed = both.record.value.embed as { $type: string; record: Body; media: { $type: string } };
      assert.deepEqual([embed.$type, embed.record, embed.media.$type], ['app.bsky.embed.recordWithMedia', { $type: 'app.bsky.embed.record', record: { uri: record.uri, cid: record.cid } }, 'app.bsky.embed.images']);
    });

    test('replyControl makes the thread gate under the post’s own key', async () => {
      const nobody = await publish('No replies please', { replyControl: 'nobody' });
      const gate = recordOf(`at://${person.did}/app.bsky.feed.threadgate/${nobody.record.rkey}`);
      assert.deepEqual([gate.value.post, gate.value.allow], [nobody.record.uri, []]);
      const mentioned = await publish('Only @friend.bsky.social may reply', { replyControl: 'mentioned' });
      assert.deepEqual(recordOf(`at://${person.did}/app.bsky.feed.threadgate/${mentioned.record.rkey}`).value.allow, [{ $type: 'app.bsky.feed.threadgate#mentionRule' }]);
    });

    test('threadItems and firstComment: a reply chain with root and parent refs, the comment replying to the first post', async () => {
      const before = records().length;
      const { target, record } = await publish('ignored', {
        threadItems: [{ content: 'One: the starter' }, { content: 'Two: the dough', mediaUrls: [media('/small.jpg')], altTexts: ['Dough'] }, { content: 'Three: the bake' }],
        firstComment: 'Questions welcome',
        contentWarning: 'nudity',
      });
      const made = records().slice(before);
      assert.equal(made.length, 4);
      const [one, two, three, comment] = made;
      assert.ok(one && two && three && comment);
      assert.equal(one.uri, record.uri);
      assert.equal(target.platformPostId, one.uri);
      const ref = (r: RepoRecord) => ({ uri: r.uri, cid: r.cid });
      assert.equal(one.value.reply, undefined);
      assert.deepEqual(two.value.reply, { root: ref(one), parent: ref(one) });
      assert.deepEqual(three.value.reply, { root: ref(one), parent: ref(two) });
      assert.deepEqual(comment.value.reply, { root: ref(one), parent: ref(one) });
      assert.deepEqual(made.map((r) => r.value.text), ['One: the starter', 'Two: the dough', 'Three: the bake', 'Questions welcome']);
      assert.equal((two.value.embed as { $type: string }).$type, 'app.bsky.embed.images');
      assert.deepEqual(made.map((r) => r.value.labels !== undefined), [true, true, true, false], 'the warning labels the thread, not the comment');
    });

    test('a 429 on createRecord waits until ratelimit-reset, then the post is made once with its saved key', async () => {
      const text = `Busy ${dialect}`;
      t.sandbox.faults.add({ host: 'bsky.social', path: '/xrpc/com.atproto.repo.createRecord', method: 'POST', kind: 'rate_limit', times: 1 });
      const res = await createPost(t, key, { content: text, publishNow: true, platforms: [{ accountId }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const targetId = res.body.post.targets[0]?.id ?? '';
      const db = t.runtime.deps.store.db;
      const row = await waitFor(async () => {
        const r = await db.selectFrom('post_targets').selectAll().where('id', '=', targetId).executeTakeFirstOrThrow();
        return r.status === 'pending' && r.attempts === 1 && r.next_attempt_at !== null ? r : null;
      }, 10_000, 'the rate-limited attempt');
      // The sandbox's reset is five minutes ahead (epoch seconds): the retry is set there, not on the usual backoff.
      const reset = Math.ceil(Date.now() / 1000) + 300;
      assert.ok(Math.abs(Number(row.next_attempt_at) - reset * 1000) < 5000, `retry at ${String(row.next_attempt_at)}, reset ${reset * 1000}`);
      assert.match(row.progress, /"rkey":"/);
      clock.offset += Number(row.next_attempt_at) - clock.now() + 1;
      t.worker?.wake();
      const post = await settled(t, key, res.body.post.id, undefined, 30_000);
      clock.offset = 0;
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.deepEqual(records().filter((r) => r.value.text === text).map((r) => r.uri), [post.targets[0]?.platformPostId]);
    });

    test('every rule is a 400 naming the field', async () => {
      const refuse = async (content: string, data: Body, field: RegExp) => {
        const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId, platformSpecificData: data }] });
        assert.equal(res.status, 400, `${JSON.stringify(data)}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.error?.message ?? '', field);
      };
      const img = media('/small.jpg');
      await refuse('x'.repeat(301), {}, /^platforms\[0\]\.content: 301 graphemes, Bluesky allows 300/);
      // 121 graphemes of 25 bytes each.
      await refuse('👩‍👩‍👧‍👦'.repeat(121), {}, /^platforms\[0\]\.content: 3025 UTF-8 bytes, Bluesky allows 3000/);
      await refuse('', {}, /^platforms\[0\]\.content: required for a bluesky post without media/);
      await refuse('ok', { mediaUrls: [img, img, img, img, img] }, /^platforms\[0\]\.platformSpecificData\.mediaUrls: Bluesky takes 1 to 4 images, or 1 MP4 video/);
      await refuse('ok', { mediaUrls: [img, media('/v.mp4')] }, /^platforms\[0\]\.platformSpecificData\.mediaUrls: .*no mixing/);
      await refuse('ok', { mediaUrls: [] }, /^platforms\[0\]\.platformSpecificData\.mediaUrls: must have 1 to 4 items/);
      await refuse('ok', { mediaUrl: img, altText: 'é'.repeat(1001) }, /^platforms\[0\]\.platformSpecificData\.altText: 1001 graphemes, Bluesky allows 1000/);
      await refuse('ok', { mediaUrls: [img], altTexts: ['a', 'b'] }, /^platforms\[0\]\.platformSpecificData\.altTexts: must give one per media item/);
      await refuse('ok', { linkCard: { url: 'http://example.com' } }, /^platforms\[0\]\.platformSpecificData\.linkCard\.url: must be an https URL/);
      await refuse('ok', { linkCard: { title: 'no url' } }, /^platforms\[0\]\.platformSpecificData\.linkCard\.url: required/);
      await refuse('ok', { linkCard: { url: 'https://example.com' }, mediaUrl: img }, /^platforms\[0\]\.platformSpecificData\.linkCard: a link card cannot go with media/);
      await refuse('ok', { quoteUri: 'https://bsky.app/profile/x/post/y' }, /^platforms\[0\]\.platformSpecificData\.quoteUri: must be the at:\/\/ URI of a post/);
      await refuse('ok', { langs: ['en', 'fr', 'de', 'es'] }, /^platforms\[0\]\.platformSpecificData\.langs: must be an array of 1 to 3 language tags/);
      await refuse('ok', { langs: ['english!'] }, /^platforms\[0\]\.platformSpecificData\.langs\[0\]: must be a BCP-47 language tag/);
      await refuse('ok', { replyControl: 'friends' }, /^platforms\[0\]\.platformSpecificData\.replyControl: must be one of everyone, nobody, mentioned, following, followers/);
      await refuse('ok', { contentWarning: 'spoiler' }, /^platforms\[0\]\.platformSpecificData\.contentWarning: must be one of sexual, nudity, porn, graphic-media/);
      await refuse('ok', { threadItems: Array.from({ length: 26 }, (_, i) => ({ content: `${i}` })) }, /^platforms\[0\]\.platformSpecificData\.threadItems: must have 1 to 25 items/);
      await refuse('ok', { threadItems: [{ content: 'fine' }, { content: 'y'.repeat(301) }] }, /^platforms\[0\]\.platformSpecificData\.threadItems\[1\]\.content: 301 graphemes, Bluesky allows 300/);
      await refuse('ok', { firstComment: 'z'.repeat(301) }, /^platforms\[0\]\.platformSpecificData\.firstComment: 301 graphemes, Bluesky allows 300/);
      // 300 graphemes of several bytes each are fine.
      const res = await createPost(t, key, { content: 'é'.repeat(300), platforms: [{ accountId, platformSpecificData: {} }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    });

    test('unpublish deletes the thread, the first comment and the gate; comments-settings rewrites the gate; no editor', async () => {
      const { post, record } = await publish('ignored', { threadItems: [{ content: 'First' }, { content: 'Second' }], firstComment: 'Comment', replyControl: 'following' });
      const gateUri = `at://${person.did}/app.bsky.feed.threadgate/${record.rkey}`;
      assert.deepEqual(recordOf(gateUri).value.allow, [{ $type: 'app.bsky.feed.threadgate#followingRule' }]);

      const off = await send(`/api/v1/posts/${post.id}/comments-settings`, { enabled: false });
      assert.equal(off.status, 200, await off.clone().text());
      assert.deepEqual(recordOf(gateUri).value.allow, []);
      const on = await send(`/api/v1/posts/${post.id}/comments-settings`, { enabled: true });
      assert.equal(on.status, 200, await on.clone().text());
      assert.deepEqual(recordOf(gateUri).value.allow, [{ $type: 'app.bsky.feed.threadgate#followingRule' }], 'the published rules come back');

      const edit = await send(`/api/v1/posts/${post.id}/edit`, { content: 'edited' });
      assert.equal(edit.status, 400, await edit.clone().text());
      assert.equal(((await edit.json()) as { error: { code: string } }).error.code, 'not_supported');

      const chain = records().filter((r) => r.uri === record.uri || (r.value.reply as { root?: { uri: string } } | undefined)?.root?.uri === record.uri);
      assert.equal(chain.length, 3);
      const gone = await send(`/api/v1/posts/${post.id}/unpublish`, {});
      assert.equal(gone.status, 200, await gone.clone().text());
      for (const r of chain) assert.equal(t.sandbox.bluesky.records.has(r.uri), false, `${r.uri} deleted`);
      assert.equal(t.sandbox.bluesky.records.has(gateUri), false, 'the gate deleted');

      // A post published without a gate: enabling comments leaves none, disabling makes one.
      const open = await publish('Open to all', {});
      const openGate = `at://${person.did}/app.bsky.feed.threadgate/${open.record.rkey}`;
      assert.equal((await send(`/api/v1/posts/${open.post.id}/comments-settings`, { enabled: false })).status, 200);
      assert.deepEqual(recordOf(openGate).value.allow, []);
      assert.equal((await send(`/api/v1/posts/${open.post.id}/comments-settings`, { enabled: true })).status, 200);
      assert.equal(t.sandbox.bluesky.records.has(openGate), false);
    });
  });
}
