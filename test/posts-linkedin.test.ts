// LinkedIn delivery against the sandbox over HTTP, on both stores (DESIGN "More platforms"): text
// with LinkedIn's reserved characters escaped (hashtags and URLs kept), one image with alt text,
// multi-image, a video uploaded in parts with ETags and finalized, a document, an article link
// card with its thumbnail, visibility, reshare, the first comment, as a person and as an
// organization; every rule of the linkedin table as a 400 naming its field; the request that
// reached the sandbox is read from its journal.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { createLogger } from '../src/http/logging.ts';
import { pollDueTargets } from '../src/modules/inbox/comment-poll-job.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addLinkedInAccount } from './linkedin-support.ts';
import { createPost, settled, startPostsApp, type PostsApp } from './posts-support.ts';

type Body = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`posts to linkedin [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const media = (path: string) => `${files.url}${path}`;
    const video = Buffer.concat([samples.mp4, Buffer.alloc(300, 7)]);

    before(async () => {
      t = await startPostsApp(dialect);
      t.sandbox.updateSettings({ processing: { linkedinVideoMs: 100 }, linkedin: { videoPartBytes: 128 } });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.png': { body: samples.png }, '/c.jpg': { body: samples.jpeg }, '/v.mp4': { body: video }, '/menu.pdf': { body: Buffer.from('%PDF-1.4 the menu') } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const calls = (after: number, method: string, path: string) => t.sandbox.journal.list({ after, method }).filter((e) => e.path === path || (path.endsWith('*') && e.path.startsWith(path.slice(0, -1))));
    const publishNow = async (platforms: unknown[], content: string) => {
      const res = await createPost(t, key, { content, publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return settled(t, key, res.body.post.id);
    };

    test('text as a person: reserved characters escaped, #hashtags and URLs kept, the headers LinkedIn requires, the post link', async () => {
      const person = await addLinkedInAccount(t, org, 'person');
      const start = mark();
      const content = 'Fresh (warm) bread_rolls @ 5 [today] #bakery see https://example.com/a_b(1) *now*';
      const post = await publishNow([{ accountId: person.id, platform: 'linkedin', platformSpecificData: { visibility: 'CONNECTIONS', disableReshare: true } }], content);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [create] = calls(start, 'POST', '/rest/posts');
      assert.ok(create);
      assert.equal(create.headers['x-restli-protocol-version'], '2.0.0');
      assert.match(create.headers['linkedin-version'] ?? '', /^\d{6}$/);
      const body = create.body as Body;
      assert.equal(body.commentary, 'Fresh \\(warm\\) bread\\_rolls \\@ 5 \\[today\\] #bakery see https://example.com/a_b(1) \\*now\\*');
      assert.deepEqual([body.author, body.visibility, body.isReshareDisabledByAuthor, body.lifecycleState], [person.author, 'CONNECTIONS', true, 'PUBLISHED']);
      const target = post.targets[0];
      const stored = t.sandbox.linkedin.posts.get(target?.platformPostId ?? '');
      assert.equal(stored?.shown, content, 'LinkedIn shows the whole text: nothing was cut');
      assert.equal(target?.url, `${t.url}/sandbox/www.linkedin.com/feed/update/${target?.platformPostId ?? ''}/`);
      const page = await fetch(target?.url ?? '');
      assert.equal(page.status, 200);
    });

    test('as an organization: one image with alt text and a first comment; multi-image; a document; an article card', async () => {
      const [one, many, doc, link] = [await addLinkedInAccount(t, org, 'organization'), await addLinkedInAccount(t, org, 'organization'), await addLinkedInAccount(t, org, 'organization'), await addLinkedInAccount(t, org, 'organization')];
      const start = mark();
      const post = await publishNow(
        [
          { accountId: one.id, platformSpecificData: { mediaUrl: media('/a.jpg'), altText: 'A loaf', firstComment: 'Open 8 (daily)' } },
          { accountId: many.id, platformSpecificData: { mediaUrls: [media('/a.jpg'), media('/b.png'), media('/c.jpg')], altTexts: ['one', null, 'three'] } },
          { accountId: doc.id, platformSpecificData: { mediaUrl: media('/menu.pdf'), title: 'Menu' } },
          { accountId: link.id, platformSpecificData: { article: { url: 'https://example.com/menu', title: 'Our menu', description: 'Seasonal', thumbnailUrl: media('/c.jpg') } } },
        ],
        'New this week',
      );
      assert.equal(post.status, 'published', JSON.stringify(post));
      const uploads = calls(start, 'PUT', '/dms-uploads/*');
      assert.equal(uploads.length, 6, 'one PUT per file');
      assert.ok(uploads.every((u) => u.headers.authorization === undefined), 'signed URLs get no bearer token');
      const creates = calls(start, 'POST', '/rest/posts').map((e) => e.body as { author: string; content?: Body });
      const contentOf = (author: string) => creates.find((c) => c.author === author)?.content ?? {};
      const single = contentOf(one.author).media as Body;
      assert.match(String(single.id), /^urn:li:image:/);
      assert.equal(single.altText, 'A loaf');
      const images = (contentOf(many.author).multiImage as { images: Body[] }).images;
      assert.deepEqual(images.map((i) => i.altText ?? null), ['one', null, 'three']);
      const document = contentOf(doc.author).media as Body;
      assert.match(String(document.id), /^urn:li:document:/);
      assert.equal(document.title, 'Menu');
      const article = contentOf(link.author).article as Body;
      assert.deepEqual([article.source, article.title, article.description], ['https://example.com/menu', 'Our menu', 'Seasonal']);
      assert.match(String(article.thumbnail), /^urn:li:image:/);
      const [comment] = calls(start, 'POST', `/rest/socialActions/${post.targets[0]?.platformPostId ?? ''}/comments`);
      assert.deepEqual(comment?.body, { actor: one.author, object: post.targets[0]?.platformPostId, message: { text: 'Open 8 \\(daily\\)' } });
      const assets = calls(start, 'POST', '/rest/images').map((e) => (e.body as { initializeUploadRequest: { owner: string } }).initializeUploadRequest.owner);
      assert.ok(assets.includes(one.author) && assets.includes(link.author));
    });

    test('a video: parts PUT with their ETags, finalized in order, published once AVAILABLE', async () => {
      const account = await addLinkedInAccount(t, org, 'organization');
      const start = mark();
      const post = await publishNow([{ accountId: account.id, platformSpecificData: { mediaUrl: media('/v.mp4'), title: 'Kneading' } }], 'Watch');
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [init] = calls(start, 'POST', '/rest/videos').filter((e) => e.query.action === 'initializeUpload');
      assert.equal((init?.body as { initializeUploadRequest: { fileSizeBytes: number } }).initializeUploadRequest.fileSizeBytes, video.length);
      const parts = calls(start, 'PUT', '/dms-uploads/*');
      assert.equal(parts.length, Math.ceil(video.length / 128));
      const [finalize] = calls(start, 'POST', '/rest/videos').filter((e) => e.query.action === 'finalizeUpload');
      const request = (finalize?.body as { finalizeUploadRequest: { uploadedPartIds: string[]; video: string } }).finalizeUploadRequest;
      const asset = t.sandbox.linkedin.assets.get(request.video);
      assert.deepEqual(request.uploadedPartIds, asset?.parts.map((p) => p.etag));
      const created = calls(start, 'POST', '/rest/posts')[0]?.body as { content: { media: Body } };
      assert.deepEqual(created.content.media, { id: request.video, title: 'Kneading' });
    });

    test('every rule of the linkedin table is a 400 naming the field', async () => {
      const account = await addLinkedInAccount(t, org, 'organization');
      const cases: Array<[Body, RegExp, string?]> = [
        [{ mediaUrl: media('/menu.pdf') }, /platformSpecificData\.title: required for a DOCUMENT/],
        [{ mediaUrls: [media('/a.jpg'), media('/v.mp4')] }, /platformSpecificData\.mediaUrls: .*cannot be mixed/],
        [{ mediaUrls: [media('/v.mp4'), media('/v.mp4')], mediaType: 'VIDEO' }, /platformSpecificData\.mediaUrls: VIDEO posts take one item/],
        [{ mediaUrls: Array.from({ length: 21 }, () => media('/a.jpg')) }, /platformSpecificData\.mediaUrls: must have 0 to 20 items/],
        [{ mediaUrl: media('/v.mp4'), altText: 'x' }, /platformSpecificData\.altText: alt texts are for images/],
        [{ mediaUrls: [media('/a.jpg'), media('/b.png')], altTexts: ['one'] }, /platformSpecificData\.altTexts: must give one per image/],
        [{ mediaUrl: media('/a.jpg'), altText: 'x'.repeat(1001) }, /platformSpecificData\.altText: must have at most 1000/],
        [{ mediaUrl: media('/a.jpg'), title: 'x' }, /platformSpecificData\.title: only for a DOCUMENT or VIDEO/],
        [{ mediaUrl: media('/menu.pdf'), title: 'x'.repeat(401) }, /platformSpecificData\.title: must have at most 400/],
        [{ article: { title: 'No URL' } }, /platformSpecificData\.article\.url: required/],
        [{ article: { url: 'http://example.com', title: 'x' } }, /platformSpecificData\.article\.url: must be an https URL/],
        [{ article: { url: 'https://example.com' } }, /platformSpecificData\.article\.title: required/],
        [{ article: { url: 'https://example.com', title: 'x' }, mediaUrl: media('/a.jpg') }, /platformSpecificData\.article: .*cannot go with media/],
        [{ visibility: 'FRIENDS' }, /platformSpecificData\.visibility: must be one of PUBLIC, CONNECTIONS, LOGGED_IN/],
        [{ firstComment: 'x'.repeat(1251) }, /platformSpecificData\.firstComment: must have at most 1250/],
        [{ disableReshare: 'yes' }, /platformSpecificData\.disableReshare: must be a boolean/],
        [{ mediaType: 'GIF' }, /platformSpecificData\.mediaType: must be one of IMAGE, VIDEO, DOCUMENT/],
        [{}, /platforms\[0\]\.content: LinkedIn posts have at most 3000/, 'x'.repeat(3001)],
        [{}, /platforms\[0\]\.content: required for a LinkedIn post/, ''],
      ];
      for (const [data, message, content] of cases) {
        const res = await createPost(t, key, { content: content ?? 'Hello', publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: data }] });
        assert.equal(res.status, 400, `${JSON.stringify(data)} → ${JSON.stringify(res.body)}`);
        assert.match(res.body.error?.message ?? '', message, JSON.stringify(data));
      }
      const warned = await createPost(t, key, { content: 'Hi', platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'x' } }] });
      assert.equal(warned.status, 201);
      assert.ok(warned.body.post.targets[0]?.warnings.some((w) => w.key === 'subreddit'));
    });

    test('CONNECTIONS as an organization is a 400 naming visibility; a duplicate not sent by us fails as LinkedIn says', async () => {
      const account = await addLinkedInAccount(t, org, 'organization');
      const start = mark();
      const connections = await createPost(t, key, { content: 'Only friends', publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { visibility: 'CONNECTIONS' } }] });
      assert.equal(connections.status, 400, JSON.stringify(connections.body));
      assert.match(connections.body.error?.message ?? '', /platforms\[0\]\.platformSpecificData\.visibility: CONNECTIONS is for person accounts only/);
      assert.equal(calls(start, 'POST', '/rest/posts').length, 0, 'nothing sent');
      const first = await publishNow([{ accountId: account.id }], 'Same words');
      assert.equal(first.status, 'published');
      const second = await publishNow([{ accountId: account.id }], 'Same words');
      assert.equal(second.status, 'failed');
      assert.match(second.targets[0]?.error ?? '', /duplicate of urn:li:share:/);
    });

    test('edit replaces the commentary (escaped) with a PARTIAL_UPDATE; unpublish deletes the post', async () => {
      const account = await addLinkedInAccount(t, org, 'organization');
      const post = await publishNow([{ accountId: account.id }], 'Before the edit');
      const urn = post.targets[0]?.platformPostId ?? '';
      const start = mark();
      const edit = await t.request(`/api/v1/posts/${post.id}/edit`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'After (edited)', accountId: account.id }) });
      assert.equal(edit.status, 200, await edit.clone().text());
      const [update] = calls(start, 'POST', `/rest/posts/${urn}`);
      assert.equal(update?.headers['x-restli-method'], 'PARTIAL_UPDATE');
      assert.deepEqual(update?.body, { patch: { $set: { commentary: 'After \\(edited\\)' } } });
      assert.equal(t.sandbox.linkedin.posts.get(urn)?.shown, 'After (edited)');
      const removed = await t.request(`/api/v1/posts/${post.id}/unpublish`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: account.id }) });
      assert.equal(removed.status, 200, await removed.clone().text());
      assert.equal(t.sandbox.linkedin.posts.get(urn)?.deleted, true);
    });

    test("LinkedIn's daily limit: a 429 waits for the next 00:00 UTC", async () => {
      const account = await addLinkedInAccount(t, org, 'person');
      t.sandbox.updateSettings({ linkedin: { dailyPosts: 0 } });
      try {
        const res = await createPost(t, key, { content: 'Over the limit', publishNow: true, platforms: [{ accountId: account.id }] });
        assert.equal(res.status, 201);
        const { db } = t.runtime.deps.store;
        const row = await waitFor(async () => {
          const target = await db.selectFrom('post_targets').selectAll().where('post_id', '=', res.body.post.id).executeTakeFirstOrThrow();
          return target.status === 'pending' && target.attempts >= 1 && target.next_attempt_at !== null ? target : null;
        }, 10_000, 'the 429 to be scheduled for retry');
        const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
        assert.equal(row.status, 'pending');
        assert.ok(Math.abs((row.next_attempt_at ?? 0) - midnight) < 60_000, `retry at ${new Date(row.next_attempt_at ?? 0).toISOString()}, not 00:00 UTC`);
        assert.match(row.error ?? '', /daily limit/);
      } finally {
        t.sandbox.updateSettings({ linkedin: { dailyPosts: 150 } });
      }
    });

    test('analytics: organization posts from share statistics with our names; person posts unsupported; organization followers', async () => {
      const organization = await addLinkedInAccount(t, org, 'organization');
      const person = await addLinkedInAccount(t, org, 'person');
      const post = await publishNow([{ accountId: organization.id, platformSpecificData: { firstComment: 'First' } }, { accountId: person.id }], 'Counted');
      assert.equal(post.status, 'published', JSON.stringify(post));
      const start = mark();
      const res = await t.request(`/api/v1/analytics/posts/${post.id}?metrics=views,reach,likes,comments,shares,clicks,saves`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      const { targets } = (await res.json()) as { targets: Array<{ accountId: string; metrics: Record<string, number>; unsupported?: string[] } & Record<string, unknown>> };
      const ofOrganization = targets.find((x) => x.accountId === organization.id);
      assert.deepEqual(ofOrganization?.metrics, { views: 120, reach: 95, likes: 12, comments: 1, shares: 3, clicks: 7 }, JSON.stringify(ofOrganization));
      const ofPerson = targets.find((x) => x.accountId === person.id);
      assert.deepEqual(ofPerson?.metrics ?? {}, {}, JSON.stringify(ofPerson));
      const [stats] = calls(start, 'GET', '/rest/organizationalEntityShareStatistics');
      assert.equal(stats?.query.shares, `List(${post.targets.find((x) => x.accountId === organization.id)?.platformPostId ?? ''})`);
      const account = await t.request(`/api/v1/analytics/accounts/${organization.id}?metrics=followers`, { key });
      assert.equal(account.status, 200, await account.clone().text());
      assert.match(await account.text(), /320/);
    });

    test('comments of organization posts: read, replied to as the organization, own deleted; a person\'s are missing_permission', async () => {
      const organization = await addLinkedInAccount(t, org, 'organization');
      const person = await addLinkedInAccount(t, org, 'person');
      const post = await publishNow([{ accountId: organization.id, platformSpecificData: { firstComment: 'Ours (first)' } }, { accountId: person.id }], 'Talk to us');
      const urn = post.targets.find((x) => x.accountId === organization.id)?.platformPostId ?? '';
      const control = await fetch(`${t.url}/sandbox/_sandbox/linkedin/comments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ postId: urn, text: 'Open on Sunday?', from: 'Reader' }) });
      assert.equal(control.status, 200, await control.clone().text());
      const theirs = ((await control.json()) as { comment: { urn: string } }).comment.urn;
      const res = await t.request(`/api/v1/posts/${post.id}/comments`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { comments: Array<{ id: string; text: string; isOwn?: boolean }>; errors: Array<{ accountId: string; error: { code?: string } }> };
      assert.deepEqual(body.comments.map((c) => c.text).sort(), ['Open on Sunday?', 'Ours (first)']);
      assert.deepEqual(body.errors.map((e) => [e.accountId, e.error.code]), [[person.id, 'missing_permission']]);
      const reply = await t.request(`/api/v1/inbox/comments/${encodeURIComponent(theirs)}/reply`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: organization.id, text: 'Yes (10 to 4)' }) });
      assert.ok(reply.status < 300, await reply.clone().text());
      const made = [...t.sandbox.linkedin.comments.values()].find((c) => c.parentUrn === theirs);
      assert.deepEqual([made?.actor, made?.shown], [organization.author, 'Yes (10 to 4)']);
      const removed = await t.request(`/api/v1/inbox/comments/${encodeURIComponent(made?.urn ?? '')}?accountId=${organization.id}`, { key, method: 'DELETE' });
      assert.ok(removed.status < 300, await removed.clone().text());
      assert.equal(t.sandbox.linkedin.comments.get(made?.urn ?? '')?.deleted, true);
    });

    test('comments on organization posts are polled into the inbox: comment.received once, not for the account\'s own', async () => {
      const organization = await addLinkedInAccount(t, org, 'organization');
      const post = await publishNow([{ accountId: organization.id, platformSpecificData: { firstComment: 'Ours' } }], 'Polled for comments');
      const urn = post.targets[0]?.platformPostId ?? '';
      await fetch(`${t.url}/sandbox/_sandbox/linkedin/comments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ postId: urn, text: 'Lovely \\(really\\)', from: 'Poller' }) });
      const context = { signal: new AbortController().signal, log: createLogger('silent') };
      await pollDueTargets(t.runtime.deps, context);
      await t.runtime.deps.store.db.updateTable('post_targets').set({ comment_poll_at: null }).where('platform_post_id', '=', urn).execute();
      await pollDueTargets(t.runtime.deps, context);
      const events = await t.runtime.deps.store.db.selectFrom('events').selectAll().where('organization_id', '=', org).where('type', '=', 'comment.received').execute();
      const ours = events.map((e) => JSON.parse(e.data) as { accountId: string; comment: { text: string } }).filter((e) => e.accountId === organization.id);
      assert.deepEqual(ours.map((e) => e.comment.text), ['Lovely (really)']);
    });
  });
}
