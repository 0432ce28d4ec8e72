// pinterest delivery against the sandbox over HTTP, on both stores (DESIGN "More platforms", the
// pinterest table): an image Pin in a board section with title, link and alt text; a carousel; a
// video registered, posted by form to its upload URL, waited for and pinned with its cover; each
// asserted on the request that reached the sandbox. Every format rule is a 400 naming the field;
// a board or section not the account's fails the target naming the key before any Pin is made;
// Trial access fails with what Pinterest said. Edit (PATCH description), unpublish (DELETE) and
// the Pin's metrics with our names.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/lib/ids.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { createPost, settled, ShiftClock, startPostsApp, type PostsApp } from './posts-support.ts';
import { addPinterestAccount } from './pinterest-support.ts';

type Body = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`posts to pinterest [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ShiftClock();
    const media = (path: string) => `${files.url}${path}`;

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      t.sandbox.updateSettings({ processing: { pinterestVideoMs: 100 } });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.png': { body: samples.png }, '/c.jpg': { body: samples.jpeg }, '/v.mp4': { body: samples.mp4 } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const calls = (after: number, method: string, path: string) => t.sandbox.journal.list({ after, method }).filter((e) => e.path === path);
    const publish = async (accountId: string, platformSpecificData: Body, content = `Rye loaf ${newId('post').slice(-6)}`) => {
      const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId, platformSpecificData }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      return { post, target: post.targets[0], content };
    };

    test('an image Pin in a section with title, link and alt text: POST /v5/pins with the image URL; the target has the Pin id and its page', async () => {
      const acc = await addPinterestAccount(t, org);
      const [recipes] = acc.boards;
      const start = mark();
      const { post, target, content } = await publish(acc.id, { boardId: recipes?.id, boardSectionId: recipes?.sections[0]?.id, title: 'Rye', link: 'https://bakery.example/rye', altText: 'A dark loaf', mediaUrl: media('/a.jpg') });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [create] = calls(start, 'POST', '/v5/pins');
      assert.match(create?.headers.authorization ?? '', /^Bearer /);
      assert.deepEqual(create?.body, {
        board_id: recipes?.id, board_section_id: recipes?.sections[0]?.id, title: 'Rye', description: content, link: 'https://bakery.example/rye', alt_text: 'A dark loaf',
        media_source: { source_type: 'image_url', url: media('/a.jpg') },
      });
      assert.match(target?.platformPostId ?? '', /^\d{18}$/);
      assert.ok(target?.url?.endsWith(`/www.pinterest.com/pin/${target.platformPostId ?? ''}/`), target?.url ?? '');
      const page = await fetch(target?.url ?? '');
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Rye loaf/);
      assert.equal(calls(start, 'GET', '/v5/boards').length, 1, 'the board was checked against the account’s boards');
    });

    test('a carousel of three images, on a secret board', async () => {
      const acc = await addPinterestAccount(t, org);
      const start = mark();
      const { post } = await publish(acc.id, { boardId: acc.boards[1]?.id, mediaUrls: [media('/a.jpg'), media('/b.png'), media('/c.jpg')] });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const source = (calls(start, 'POST', '/v5/pins')[0]?.body as Body).media_source;
      assert.deepEqual(source, { source_type: 'multiple_image_urls', items: [{ url: media('/a.jpg') }, { url: media('/b.png') }, { url: media('/c.jpg') }] });
    });

    test('a video: media_id registered and stored first, the form upload with every parameter, the status waited for, then the Pin (key frame 0 by default, or the cover URL)', async () => {
      const acc = await addPinterestAccount(t, org);
      const start = mark();
      const { post, target } = await publish(acc.id, { boardId: acc.boards[0]?.id, mediaUrl: media('/v.mp4') });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [registered] = calls(start, 'POST', '/v5/media');
      assert.deepEqual(registered?.body, { media_type: 'video' });
      const uploads = t.sandbox.journal.list({ after: start, method: 'POST' }).filter((e) => e.host.endsWith('amazonaws.com'));
      assert.equal(uploads.length, 1);
      assert.equal(uploads[0]?.status, 204);
      assert.equal(uploads[0]?.headers.authorization, undefined, 'no bearer token to the storage');
      const statuses = t.sandbox.journal.list({ after: start, method: 'GET' }).filter((e) => e.path.startsWith('/v5/media/'));
      const create = calls(start, 'POST', '/v5/pins')[0];
      assert.ok(statuses.length >= 2 && (statuses.at(-1)?.seq ?? 0) < (create?.seq ?? 0), 'the status was read until it succeeded, before the Pin');
      const source = (create?.body as Body).media_source as Body;
      assert.equal(source.source_type, 'video_id');
      assert.equal(source.cover_image_key_frame_time, 0);
      assert.equal(t.sandbox.pinterest.pins.get(target?.platformPostId ?? '')?.mediaId, source.media_id);
      const row = await t.runtime.deps.store.db.selectFrom('post_targets').select('progress').where('post_id', '=', post.id).executeTakeFirstOrThrow();
      const progress = JSON.parse(row.progress) as Body;
      assert.equal(progress.mediaId, source.media_id);
      assert.equal(progress.upload, undefined, 'the signed upload form is never stored with the target');
      assert.doesNotMatch(row.progress, /signature|policy|amz/i);

      const covered = mark();
      const withCover = await publish(acc.id, { boardId: acc.boards[0]?.id, mediaUrl: media('/v.mp4'), coverImageUrl: media('/a.jpg') });
      assert.equal(withCover.post.status, 'published', JSON.stringify(withCover.post));
      const coverSource = (calls(covered, 'POST', '/v5/pins')[0]?.body as Body).media_source as Body;
      assert.equal(coverSource.cover_image_url, media('/a.jpg'));
      assert.equal(coverSource.cover_image_key_frame_time, undefined);
    });

    test('every rule of the table is a 400 naming the field', async () => {
      const acc = await addPinterestAccount(t, org);
      const board = acc.boards[0]?.id ?? '';
      const cases: Array<[Body, string, string?]> = [
        [{ mediaUrl: media('/a.jpg') }, 'platformSpecificData.boardId'],
        [{ boardId: 'abc', mediaUrl: media('/a.jpg') }, 'platformSpecificData.boardId'],
        [{ boardId: board }, 'platformSpecificData.mediaUrl'],
        [{ boardId: board, boardSectionId: '12x', mediaUrl: media('/a.jpg') }, 'platformSpecificData.boardSectionId'],
        [{ boardSectionId: '12', mediaUrl: media('/a.jpg') }, 'platformSpecificData.boardSectionId'],
        [{ boardId: board, title: 't'.repeat(101), mediaUrl: media('/a.jpg') }, 'platformSpecificData.title'],
        [{ boardId: board, link: 'ftp://bakery.example/', mediaUrl: media('/a.jpg') }, 'platformSpecificData.link'],
        [{ boardId: board, link: `https://bakery.example/${'a'.repeat(2040)}`, mediaUrl: media('/a.jpg') }, 'platformSpecificData.link'],
        [{ boardId: board, altText: 'a'.repeat(501), mediaUrl: media('/a.jpg') }, 'platformSpecificData.altText'],
        [{ boardId: board, altText: 'a', mediaUrl: media('/v.mp4') }, 'platformSpecificData.altText'],
        [{ boardId: board, mediaUrls: [media('/a.jpg'), media('/b.png'), media('/c.jpg'), media('/a.jpg'), media('/b.png'), media('/c.jpg')] }, 'platformSpecificData.mediaUrls'],
        [{ boardId: board, mediaUrls: [media('/a.jpg'), media('/v.mp4')] }, 'platformSpecificData.mediaUrls'],
        [{ boardId: board, mediaUrl: media('/a.jpg'), coverImageUrl: media('/b.png') }, 'platformSpecificData.coverImageUrl'],
        [{ boardId: board, mediaUrl: media('/a.jpg'), coverImageKeyFrameTime: 1 }, 'platformSpecificData.coverImageKeyFrameTime'],
        [{ boardId: board, mediaUrl: media('/v.mp4'), coverImageUrl: media('/b.png'), coverImageKeyFrameTime: 1 }, 'platformSpecificData.coverImageKeyFrameTime'],
        [{ boardId: board, mediaUrl: media('/v.mp4'), coverImageKeyFrameTime: -1 }, 'platformSpecificData.coverImageKeyFrameTime'],
        [{ boardId: board, mediaUrl: media('/a.jpg') }, 'platforms[0].content', 'd'.repeat(801)],
      ];
      for (const [data, field, content] of cases) {
        const res = await createPost(t, key, { content: content ?? 'A Pin', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: data }] });
        assert.equal(res.status, 400, `${JSON.stringify(data).slice(0, 120)}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.error?.message ?? '', new RegExp(`^platforms\\[0\\]\\.${field.replace('platforms[0].', '').replace(/[.[\]]/g, (c) => `\\${c}`)}`), JSON.stringify(res.body));
      }
      const draft = await createPost(t, key, { content: 'A draft', platforms: [{ accountId: acc.id, platformSpecificData: {} }] });
      assert.equal(draft.status, 201, 'boardId and media are live rules: a draft may lack them');
    });

    test('a board or section the account does not own fails the target naming the key, with no Pin made', async () => {
      const acc = await addPinterestAccount(t, org);
      const other = await addPinterestAccount(t, org);
      const start = mark();
      const foreign = await publish(acc.id, { boardId: other.boards[0]?.id, mediaUrl: media('/a.jpg') });
      assert.equal(foreign.post.status, 'failed');
      assert.match(foreign.target?.error ?? '', /platformSpecificData\.boardId: \d+ is not a board of this Pinterest account/);
      const section = await publish(acc.id, { boardId: acc.boards[1]?.id, boardSectionId: acc.boards[0]?.sections[0]?.id, mediaUrl: media('/a.jpg') });
      assert.equal(section.post.status, 'failed');
      assert.match(section.target?.error ?? '', /platformSpecificData\.boardSectionId: \d+ is not a section of board/);
      assert.equal(calls(start, 'POST', '/v5/pins').length, 0);
    });

    test('Trial access: the target fails with what Pinterest said, naming Standard access', async () => {
      const acc = await addPinterestAccount(t, org);
      t.sandbox.updateSettings({ pinterest: { trial: true } });
      try {
        const { post, target } = await publish(acc.id, { boardId: acc.boards[0]?.id, mediaUrl: media('/a.jpg') });
        assert.equal(post.status, 'failed');
        assert.match(target?.error ?? '', /Trial access may not create Pins.*Standard access/);
      } finally {
        t.sandbox.updateSettings({ pinterest: { trial: false } });
      }
    });

    test('a video whose upload failed once: the next run registers a new media, since the signed upload form was never stored', async () => {
      const acc = await addPinterestAccount(t, org);
      const start = mark();
      t.sandbox.faults.add({ host: 'pinterest-media-upload.s3-accelerate.amazonaws.com', method: 'POST', kind: 'server_error', status: 503, times: 1 });
      const res = await createPost(t, key, { content: `Rye loaf ${newId('post').slice(-6)}`, publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: { boardId: acc.boards[0]?.id, mediaUrl: media('/v.mp4') } }] });
      const id = res.body.post.id;
      const row = await waitFor(async () => {
        const r = await t.runtime.deps.store.db.selectFrom('post_targets').selectAll().where('post_id', '=', id).executeTakeFirstOrThrow();
        return r.attempts >= 1 && r.status === 'pending' && r.next_attempt_at !== null ? r : null;
      }, 20_000, 'the 503');
      clock.offset += (row.next_attempt_at ?? 0) - clock.now() + 1000;
      const post = await settled(t, key, id, undefined, 30_000);
      const target = post.targets[0];
      assert.equal(post.status, 'published', JSON.stringify(post));
      const registered = calls(start, 'POST', '/v5/media');
      assert.equal(registered.length, 2, 'registered again after the failed upload');
      const uploads = t.sandbox.journal.list({ after: start, method: 'POST' }).filter((e) => e.host.endsWith('amazonaws.com'));
      assert.deepEqual(uploads.map((u) => u.status), [503, 204]);
      const source = (calls(start, 'POST', '/v5/pins')[0]?.body as Body).media_source as Body;
      assert.equal(t.sandbox.pinterest.pins.get(target?.platformPostId ?? '')?.mediaId, source.media_id);
    });

    test('best time without history: the pinterest defaults, daily 01 to 04 UTC', async () => {
      const acc = await addPinterestAccount(t, org);
      const res = await t.request(`/api/v1/analytics/best-time?accountId=${acc.id}`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { basis: string; slots: Array<{ weekday: number; hour: number }> };
      assert.equal(body.basis, 'default');
      assert.ok(body.slots.length > 0 && body.slots.every((s) => s.hour >= 1 && s.hour <= 4), JSON.stringify(body.slots));
      assert.deepEqual([...new Set(body.slots.map((s) => s.weekday))].sort(), [0, 1, 2, 3, 4, 5, 6]);
    });

    test('a 429 from Pinterest is retried later, nothing made; another organization cannot post to the account or act on its Pin', async () => {
      const acc = await addPinterestAccount(t, org);
      t.sandbox.updateSettings({ pinterest: { writesPerMinute: 0 } });
      try {
        const res = await createPost(t, key, { content: 'Too soon', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: { boardId: acc.boards[0]?.id, mediaUrl: media('/a.jpg') } }] });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const { db } = t.runtime.deps.store;
        const row = await waitFor(async () => {
          const target = await db.selectFrom('post_targets').selectAll().where('post_id', '=', res.body.post.id).executeTakeFirstOrThrow();
          return target.status === 'pending' && target.attempts >= 1 && target.next_attempt_at !== null ? target : null;
        }, 10_000, 'the 429 to be scheduled for retry');
        assert.match(row.error ?? '', /rate limit/i);
        assert.equal([...t.sandbox.pinterest.pins.values()].filter((p) => p.description === 'Too soon').length, 0);
      } finally {
        t.sandbox.updateSettings({ pinterest: { writesPerMinute: 100 } });
      }
      const { post } = await publish(acc.id, { boardId: acc.boards[0]?.id, mediaUrl: media('/a.jpg') });
      const other = await t.tenant();
      const foreign = await createPost(t, other.key, { content: 'Not yours', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: { boardId: acc.boards[0]?.id, mediaUrl: media('/a.jpg') } }] });
      assert.ok(foreign.status === 400 || foreign.status === 404, JSON.stringify(foreign.body));
      const unpublish = await t.request(`/api/v1/posts/${post.id}/unpublish`, { key: other.key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: acc.id }) });
      assert.equal(unpublish.status, 404);
      const analytics = await t.request(`/api/v1/analytics/posts/${post.id}?metrics=views`, { key: other.key });
      assert.equal(analytics.status, 404);
      assert.equal(t.sandbox.pinterest.pins.get(post.targets[0]?.platformPostId ?? '')?.deleted, false);
    });

    test('edit PATCHes the description; Pin metrics with our names, the account’s followers; unpublish DELETEs the Pin', async () => {
      const acc = await addPinterestAccount(t, org);
      const { post, target } = await publish(acc.id, { boardId: acc.boards[0]?.id, mediaUrl: media('/a.jpg') });
      const pinId = target?.platformPostId ?? '';
      const start = mark();
      const edit = await t.request(`/api/v1/posts/${post.id}/edit`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'Now with caraway', accountId: acc.id }) });
      assert.equal(edit.status, 200, await edit.clone().text());
      assert.deepEqual(calls(start, 'PATCH', `/v5/pins/${pinId}`).map((e) => e.body), [{ description: 'Now with caraway' }]);
      assert.equal(t.sandbox.pinterest.pins.get(pinId)?.description, 'Now with caraway');

      const control = await fetch(`${t.url}/sandbox/_sandbox/pinterest/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pinId, impressions: 120, saves: 9, pinClicks: 14, outboundClicks: 5, reactions: 7, comments: 2 }) });
      assert.equal(control.status, 200, await control.clone().text());
      const res = await t.request(`/api/v1/analytics/posts/${post.id}?metrics=views,saves,clicks,websiteClicks,likes,comments,shares`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      const { targets } = (await res.json()) as { targets: Array<{ metrics: Record<string, number>; unsupported?: string[] }> };
      assert.deepEqual(targets[0]?.metrics, { views: 120, saves: 9, clicks: 14, websiteClicks: 5, likes: 7, comments: 2 }, JSON.stringify(targets[0]));

      const followers = await t.request(`/api/v1/analytics/accounts/${acc.id}?metrics=followers`, { key });
      assert.equal(followers.status, 200, await followers.clone().text());
      assert.match(await followers.text(), /"followers"[^}]*310/);

      const comments = await t.request(`/api/v1/posts/${post.id}/comments-settings`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enabled: false, accountId: acc.id }) });
      assert.equal(comments.status, 400);

      const removed = await t.request(`/api/v1/posts/${post.id}/unpublish`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: acc.id }) });
      assert.equal(removed.status, 200, await removed.clone().text());
      assert.equal(t.sandbox.pinterest.pins.get(pinId)?.deleted, true);
      // Sent again (its answer lost, say): the Pin is already gone, which is what was asked.
      const again = await t.request(`/api/v1/posts/${post.id}/unpublish`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: acc.id }) });
      assert.equal(again.status, 200, await again.clone().text());
    });
  });
}
