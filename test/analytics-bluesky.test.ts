// Bluesky analytics against the sandbox over HTTP (DESIGN "Analytics", the bluesky column), both
// stores: a post's likes, replies (comments), reposts and quotes as getPosts counts them, the
// metrics Bluesky has not (views, clicks …) listed as unsupported, the account's
// followers from getProfile, and demographics and followers online not offered (400
// not_supported, no platform call).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { control } from './bluesky-support.ts';
import { personReplies, publishedBluesky } from './bluesky-engagement-support.ts';
import { startPostsApp, type PostsApp } from './posts-support.ts';

interface Target {
  platform: string;
  platformPostId: string;
  source: string;
  metrics: Record<string, number>;
  unsupported: string[];
  errors: unknown[];
}
interface Answer {
  targets?: Target[];
  metrics?: Array<{ metric: string; total: number | null }>;
  unsupported?: string[];
  error?: { message: string; code?: string };
}

for (const dialect of DIALECTS) {
  describe(`bluesky analytics [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;

    before(async () => {
      t = await startPostsApp(dialect);
      ({ key } = await t.tenant());
    });
    after(() => t.close());

    const api = async (path: string): Promise<{ status: number; body: Answer }> => {
      const res = await t.request(`/api/v1${path}`, { key });
      return { status: res.status, body: (await res.json()) as Answer };
    };
    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const readsSince = (seq: number) => t.sandbox.journal.list({ host: 'bsky.social', after: seq }).filter((e) => !e.path.includes('Session')).map((e) => [e.path.replace('/xrpc/', ''), e.query]);

    test('post metrics are the post’s counts: likes, replies as comments, reposts, quotes; Bluesky’s missing ones are unsupported', async () => {
      const mine = await publishedBluesky(t, key, 'Counting crumbs');
      await control(t, 'likes', { postId: mine.uri, from: 'friend.bsky.social' });
      await control(t, 'likes', { postId: mine.uri, from: 'reader.bsky.social' });
      await control(t, 'reposts', { postId: mine.uri, from: 'friend.bsky.social' });
      await control(t, 'quotes', { postId: mine.uri, text: 'Look at this', from: 'reader.bsky.social' });
      await personReplies(t, mine.uri, 'Nice');
      await control(t, 'metrics', { postId: mine.uri, likes: 40, reposts: 2, quotes: 1, replies: 5 });

      let seq = mark();
      const live = await api(`/analytics/posts/${mine.postId}?refresh=1`);
      assert.equal(live.status, 200, JSON.stringify(live.body));
      const [target] = live.body.targets ?? [];
      assert.deepEqual([target?.platform, target?.platformPostId, target?.source], ['bluesky', mine.uri, 'live']);
      assert.deepEqual(target?.metrics, { likes: 42, comments: 6, reposts: 3, quotes: 2 });
      assert.deepEqual([target?.unsupported, target?.errors], [[], []]);
      assert.deepEqual(readsSince(seq), [['app.bsky.feed.getPosts', { uris: mine.uri }]]);

      const narrowed = await api(`/analytics/posts/${mine.postId}?metrics=views,likes,clicks,saves&refresh=1`);
      assert.equal(narrowed.status, 200, JSON.stringify(narrowed.body));
      const [only] = narrowed.body.targets ?? [];
      assert.deepEqual([only?.metrics, only?.unsupported], [{ likes: 42 }, ['views', 'clicks', 'saves']]);

      // Without refresh the answer comes from the snapshot the live read stored.
      seq = mark();
      const stored = await api(`/analytics/posts/${mine.postId}?metrics=quotes,views`);
      assert.deepEqual([stored.body.targets?.[0]?.source, stored.body.targets?.[0]?.metrics, stored.body.targets?.[0]?.unsupported], ['snapshot', { quotes: 2 }, ['views']]);
      assert.deepEqual(readsSince(seq), []);
    });

    test('account followers are the profile’s followersCount; other account metrics unsupported; demographics and followers online not offered', async () => {
      const mine = await publishedBluesky(t, key, 'Followers please');
      await control(t, 'account', { actor: mine.person.did, followersCount: 320 });
      await control(t, 'follows', { actor: mine.person.did, from: 'friend.bsky.social' });
      const seq = mark();
      const insights = await api(`/analytics/accounts/${mine.accountId}?metrics=followers,reach`);
      assert.equal(insights.status, 200, JSON.stringify(insights.body));
      assert.deepEqual(insights.body.metrics?.map((m) => [m.metric, m.total]), [['followers', 321]]);
      assert.deepEqual(insights.body.unsupported, ['reach']);
      assert.deepEqual(readsSince(seq), [['app.bsky.actor.getProfile', { actor: mine.person.did }]]);

      const after = mark();
      const demographics = await api(`/analytics/accounts/${mine.accountId}/demographics?breakdown=country`);
      assert.deepEqual([demographics.status, demographics.body.error?.code], [400, 'not_supported']);
      const online = await api(`/analytics/accounts/${mine.accountId}/online-followers`);
      assert.deepEqual([online.status, online.body.error?.code], [400, 'not_supported']);
      assert.deepEqual(readsSince(after), []);
    });
  });
}
