// The permissions Meta really uses (issue 29, item 3), on both stores against the in-process
// sandbox: a facebook connect asks pages_read_user_content (there is no
// pages_read_user_engagement, which Facebook Login refuses); an account connected with the old
// list shows the missing permission in health, and GET /posts/{id}/comments lists what Meta
// still gives (the Page's own comments) and names the permission in that target's error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, walkConnect } from './harness/connect.ts';
import { addMetaAccount } from './posts-meta-support.ts';
import { createPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';

/** What a facebook connect stored before the fix: the invented permission, not the real one. */
const OLD_LIST = ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement', 'pages_read_user_engagement', 'pages_manage_metadata'];

interface Health {
  scopes: string[];
  missingPermissions: Array<{ permission: string; features: string[] }>;
  recommendations: string[];
}
interface CommentsAnswer {
  comments: Array<{ id: string; accountId: string; isOwn: boolean }>;
  errors: Array<{ accountId: string; error: { message: string; code?: string } }>;
}

for (const dialect of DIALECTS) {
  describe(`the permissions Meta really uses [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    before(async () => {
      t = await startPostsApp(dialect);
      ({ key, organizationId: org } = await t.tenant());
    });
    after(() => t.close());

    const get = async <T>(path: string): Promise<T> => {
      const res = await t.request(`/api/v1${path}`, { key });
      const body = (await res.json()) as T;
      assert.equal(res.status, 200, JSON.stringify(body));
      return body;
    };
    const health = async (id: string) => (await get<{ health: Health }>(`/accounts/${id}/health?refresh=1`)).health;
    const published = async (accountId: string, content: string): Promise<ApiPost> => {
      const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      return post;
    };
    const personComments = async (objectId: string, message: string): Promise<string> => {
      const res = await fetch(`${t.url}/sandbox/_sandbox/meta/comments`, { method: 'POST', headers: json, body: JSON.stringify({ objectId, message, from: { name: 'Dana W' } }) });
      assert.equal(res.status, 200);
      return ((await res.json()) as { id: string }).id;
    };
    const pageComments = async (accountId: string, platformPostId: string, text: string): Promise<string> => {
      const res = await t.request('/api/v1/inbox/comments', { key, method: 'POST', headers: json, body: JSON.stringify({ accountId, platformPostId, text }) });
      const body = (await res.json()) as { id: string };
      assert.equal(res.status, 200, JSON.stringify(body));
      return body.id;
    };

    test('a facebook connect asks pages_read_user_content, which Facebook Login knows; the old name is refused on the dialog', async () => {
      const start = await t.request('/api/v1/connect/facebook', { key });
      const { authUrl } = (await start.json()) as { authUrl: string };
      const asked = (new URL(authUrl).searchParams.get('scope') ?? '').split(',');
      assert.ok(asked.includes('pages_read_user_content'), asked.join(','));
      assert.ok(!asked.includes('pages_read_user_engagement'), asked.join(','));

      const walk = await walkConnect(t, key, 'facebook', { redirectUrl: CLIENT_REDIRECT }, { untick: [[...t.sandbox.people.pages.values()].find((p) => p.name === 'Sandbox Books')?.id ?? ''] });
      const id = walk.location?.searchParams.get('accountId') ?? '';
      assert.match(id, /^acc_/, walk.location?.toString());
      const h = await health(id);
      assert.ok(h.scopes.includes('pages_read_user_content'));
      assert.deepEqual(h.missingPermissions.filter((m) => m.features.includes('comments')), []);

      const old = new URL(authUrl);
      old.searchParams.set('scope', [...asked.filter((s) => s !== 'pages_read_user_content'), 'pages_read_user_engagement'].join(','));
      const refused = await fetch(old, { redirect: 'manual' });
      assert.equal(refused.status, 400);
      assert.match(await refused.text(), /Invalid Scopes: pages_read_user_engagement/);
    });

    test("an account connected with the old list: health names pages_read_user_content; the post's comments name it in that target's error", async () => {
      const stale = await addMetaAccount(t, org, 'facebook', { scopes: OLD_LIST });
      const h = await health(stale.id);
      assert.deepEqual(
        h.missingPermissions.find((m) => m.permission === 'pages_read_user_content'),
        { permission: 'pages_read_user_content', features: ['comments'] },
      );
      assert.ok(h.recommendations.some((r) => r.includes('pages_read_user_content')), h.recommendations.join(' | '));
      assert.ok(!h.missingPermissions.some((m) => m.permission === 'pages_read_user_engagement'));

      const post = await published(stale.id, 'Rye on Saturdays');
      const fbPostId = post.targets[0]?.platformPostId ?? '';
      const theirs = await personComments(fbPostId, 'What time?');
      const own = await pageComments(stale.id, fbPostId, 'From eight');
      const answer = await get<CommentsAnswer>(`/posts/${post.id}/comments`);
      assert.deepEqual(answer.comments.map((c) => [c.id, c.isOwn]), [[own, true]], "Meta leaves the person's comment out");
      assert.ok(!answer.comments.some((c) => c.id === theirs));
      assert.equal(answer.errors.length, 1, JSON.stringify(answer.errors));
      assert.equal(answer.errors[0]?.accountId, stale.id);
      assert.equal(answer.errors[0]?.error.code, 'missing_permission');
      assert.match(answer.errors[0]?.error.message ?? '', /^pages_read_user_content is not granted: people's comments are left out/);

      // With the permission, the same kind of post lists people's comments and no error.
      const good = await addMetaAccount(t, org, 'facebook');
      const full = await published(good.id, 'Spelt on Sundays');
      const fullPostId = full.targets[0]?.platformPostId ?? '';
      const person = await personComments(fullPostId, 'How much?');
      const mine = await pageComments(good.id, fullPostId, 'Four euros');
      const all = await get<CommentsAnswer>(`/posts/${full.id}/comments`);
      assert.deepEqual(all.comments.map((c) => c.id), [person, mine]);
      assert.deepEqual(all.errors, []);
    });
  });
}
