// x beyond the first publish, on both stores: X_DAILY_POST_LIMIT makes GET
// /accounts/{id}/publishing-limit answer from the posts the service published, and POST /posts
// with publishNow answer 429 once the account has none left; unpublish deletes the post on X.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { createPost, json, settled, startPostsApp, type PostsApp } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

for (const dialect of DIALECTS) {
  describe(`x limits and published posts [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    before(async () => {
      t = await startPostsApp(dialect, { env: { X_DAILY_POST_LIMIT: '2', X_READS: '1' } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(() => t.close());

    const limit = async (id: string) => {
      const res = await t.request(`/api/v1/accounts/${id}/publishing-limit`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      return (await res.json()) as { used: number; allowed: number; windowHours: number };
    };
    const publish = async (accountId: string, content: string) => {
      const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId }] });
      return res;
    };

    test('X_DAILY_POST_LIMIT: the limit counts what the service published; the next publishNow is 429', async () => {
      const acc = await addXAccount(t, org);
      assert.deepEqual(await limit(acc.id), { used: 0, allowed: 2, windowHours: 24 });
      for (const n of [1, 2]) {
        const res = await publish(acc.id, `Counted ${n} ${acc.id}`);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal((await settled(t, key, res.body.post.id)).status, 'published');
      }
      assert.deepEqual(await limit(acc.id), { used: 2, allowed: 2, windowHours: 24 });
      const refused = await publish(acc.id, `Counted 3 ${acc.id}`);
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.error?.code, 'rate_limited');
      assert.match(refused.body.error?.message ?? '', /no posts left in its publishing window: 2 of 2 in the last 24 hours/);
      const draft = await createPost(t, key, { content: 'a draft is fine', platforms: [{ accountId: acc.id }] });
      assert.equal(draft.status, 201);
    });

    test('unpublish deletes the post on X', async () => {
      const acc = await addXAccount(t, org);
      const res = await publish(acc.id, `To delete ${acc.id}`);
      const post = await settled(t, key, res.body.post.id);
      const postId = post.targets[0]?.platformPostId ?? '';
      assert.equal(t.sandbox.x.posts.get(postId)?.deleted, false);
      const gone = await t.request(`/api/v1/posts/${post.id}/unpublish`, { key, method: 'POST', headers: json, body: '{}' });
      assert.equal(gone.status, 200, await gone.clone().text());
      assert.equal(t.sandbox.x.posts.get(postId)?.deleted, true);
      const call = t.sandbox.journal.list({ host: 'api.x.com', method: 'DELETE' }).at(-1);
      assert.equal(call?.path, `/2/tweets/${postId}`);
    });

    test('unpublishing a thread deletes every item and the first comment, the first post last', async () => {
      const acc = await addXAccount(t, org);
      const res = await createPost(t, key, { content: 'thread', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: { threadItems: [{ content: `A ${acc.id}` }, { content: `B ${acc.id}` }], firstComment: `C ${acc.id}` } }] });
      const post = await settled(t, key, res.body.post.id);
      const mine = () => [...t.sandbox.x.posts.values()].filter((p) => p.authorId === acc.userId);
      assert.equal(mine().length, 3);
      const before = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const gone = await t.request(`/api/v1/posts/${post.id}/unpublish`, { key, method: 'POST', headers: json, body: '{}' });
      assert.equal(gone.status, 200, await gone.clone().text());
      assert.ok(mine().every((p) => p.deleted));
      const deletes = t.sandbox.journal.list({ host: 'api.x.com', method: 'DELETE', after: before }).map((e) => e.path);
      assert.equal(deletes.length, 3);
      assert.equal(deletes.at(-1), `/2/tweets/${post.targets[0]?.platformPostId ?? ''}`);
    });

    test('post analytics map X metrics onto ours (views, likes, comments, reposts, quotes, saves, clicks)', async () => {
      const acc = await addXAccount(t, org);
      const res = await publish(acc.id, `Measured ${acc.id}`);
      const post = await settled(t, key, res.body.post.id);
      const postId = post.targets[0]?.platformPostId ?? '';
      const set = await t.request('/sandbox/_sandbox/x/metrics', {
        method: 'POST', headers: json,
        body: JSON.stringify({ postId, impressions: 900, likes: 40, replies: 5, reposts: 7, quotes: 2, bookmarks: 3, urlLinkClicks: 11 }),
      });
      assert.equal(set.status, 200, await set.clone().text());
      const read = await t.request(`/api/v1/analytics/posts/${post.id}?refresh=1`, { key });
      assert.equal(read.status, 200, await read.clone().text());
      const [target] = ((await read.json()) as { targets: Array<{ metrics: Record<string, number>; unsupported: string[]; errors: unknown[] }> }).targets;
      assert.deepEqual(target?.metrics, { views: 900, likes: 40, comments: 5, reposts: 7, quotes: 2, saves: 3, clicks: 11 });
      assert.deepEqual(target?.unsupported, ['videoViews'], 'a post without video has no video views');
      assert.deepEqual(target?.errors, []);
      const lookup = t.sandbox.journal.list({ host: 'api.x.com', method: 'GET' }).at(-1);
      assert.equal(lookup?.path, `/2/tweets/${postId}`);
    });

    test('account analytics: followers from /2/users/me public_metrics; other account metrics unsupported', async () => {
      const acc = await addXAccount(t, org);
      const user = t.sandbox.people.xUsers.get(acc.userId);
      assert.ok(user);
      user.followersCount = 1234;
      const start = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const read = await t.request(`/api/v1/analytics/accounts/${acc.id}?metrics=followers,views`, { key });
      assert.equal(read.status, 200, await read.clone().text());
      const body = (await read.json()) as { metrics: Array<{ metric: string; total: number | null }>; unsupported: string[] };
      assert.deepEqual(body.metrics.map((m) => [m.metric, m.total]), [['followers', 1234]]);
      assert.deepEqual(body.unsupported, ['views']);
      const calls = t.sandbox.journal.list({ after: start, host: 'api.x.com' });
      assert.deepEqual(calls.map((c) => [c.path, c.query['user.fields']]), [['/2/users/me', 'public_metrics']]);
    });

    test('comments: replies listed from search/recent, answered, hidden, liked; own replies deleted', async () => {
      const acc = await addXAccount(t, org);
      const res = await publish(acc.id, `Talk to us ${acc.id}`);
      const post = await settled(t, key, res.body.post.id);
      const postId = post.targets[0]?.platformPostId ?? '';
      const control = (body: unknown) => t.request('/sandbox/_sandbox/x/replies', { method: 'POST', headers: json, body: JSON.stringify(body) });
      const first = (await (await control({ postId, text: 'Open on Sunday?', from: { username: 'hungry_fan' } })).json()) as { id: string };
      await control({ postId: first.id, text: 'Asking too & so is Mum <3', from: { username: 'second_fan' } });
      const listed = await t.request(`/api/v1/posts/${post.id}/comments`, { key });
      assert.equal(listed.status, 200, await listed.clone().text());
      const comments = ((await listed.json()) as { comments: Array<{ id: string; text: string; username: string; parentId: string | null }> }).comments;
      assert.deepEqual(comments.map((c) => [c.text, c.username, c.parentId]), [['Open on Sunday?', 'hungry_fan', null], ['Asking too & so is Mum <3', 'second_fan', first.id]]);
      // The inbox pages through the same comments.
      const inbox = await t.request(`/api/v1/inbox/comments?postId=${post.id}`, { key });
      assert.equal(inbox.status, 200, await inbox.clone().text());
      const paged = ((await inbox.json()) as { comments: Array<{ text: string; parentId: string | null }> }).comments;
      assert.deepEqual(paged.map((c) => [c.text, c.parentId]), [['Open on Sunday?', null], ['Asking too & so is Mum <3', first.id]]);
      const search = t.sandbox.journal.list({ host: 'api.x.com', path: '/2/tweets/search/recent' }).at(-1);
      assert.equal(search?.query.query, `conversation_id:${postId}`);

      const send = (path: string, method: string, body: unknown) => t.request(path, { key, method, headers: json, body: JSON.stringify(body) });
      const replied = await send(`/api/v1/inbox/comments/${first.id}/reply`, 'POST', { accountId: acc.id, text: 'Yes, 9 to 1' });
      assert.equal(replied.status, 200, await replied.clone().text());
      const replyId = ((await replied.json()) as { comment?: { id: string }; id?: string }).comment?.id ?? '';
      const sent = t.sandbox.journal.list({ host: 'api.x.com', path: '/2/tweets', method: 'POST' }).at(-1);
      assert.deepEqual(sent?.body, { text: 'Yes, 9 to 1', reply: { in_reply_to_tweet_id: first.id } });
      assert.equal((await send(`/api/v1/inbox/comments/${first.id}/hide`, 'POST', { accountId: acc.id })).status, 200);
      assert.equal(t.sandbox.x.posts.get(first.id)?.hidden, true);
      assert.equal((await send(`/api/v1/inbox/comments/${first.id}/like`, 'POST', { accountId: acc.id })).status, 200);
      assert.deepEqual(t.sandbox.x.posts.get(first.id)?.likedBy, [acc.userId]);
      const ownId = replyId || [...t.sandbox.x.posts.values()].find((p) => p.text === 'Yes, 9 to 1')?.id || '';
      assert.equal((await t.request(`/api/v1/inbox/comments/${ownId}?accountId=${acc.id}`, { key, method: 'DELETE' })).status, 200);
      assert.equal(t.sandbox.x.posts.get(ownId)?.deleted, true);
    });

    test('best time without data of the account: weekdays 13–16 UTC', async () => {
      const acc = await addXAccount(t, org);
      const res = await t.request(`/api/v1/analytics/best-time?accountId=${acc.id}`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { slots: Array<{ weekday: number; hour: number }> };
      assert.ok(body.slots.length > 0);
      for (const slot of body.slots) assert.ok(slot.weekday <= 4 && slot.hour >= 13 && slot.hour <= 16, JSON.stringify(slot));
    });
  });
}
