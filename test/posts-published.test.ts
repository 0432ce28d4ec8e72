// Published-post operations over HTTP against the sandbox, on both stores: edit (facebook),
// unpublish (facebook, threads), comments-settings (instagram), the accountId rule, 400
// not_supported, 409 NOT_PUBLISHED, 403 approval_required (key and account), 409
// reconnect_required (stored, and from the platform's 190), and another organization's post.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey } from '../src/modules/keys/service.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addMetaAccount, quickMetaProcessing } from './posts-meta-support.ts';
import { addAccount, createPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';

for (const dialect of DIALECTS) {
  describe(`published-post operations [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect);
      quickMetaProcessing(t);
      files = await fileServer({ '/a.jpg': { body: samples.jpeg } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const published = async (platforms: unknown[], content = 'Live post'): Promise<ApiPost> => {
      const res = await createPost(t, key, { content, publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      return post;
    };
    const op = async (postId: string, name: string, body: unknown, apiKey = key) => {
      const res = await t.request(`/api/v1/posts/${postId}/${name}`, { key: apiKey, method: 'POST', headers: json, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { targets?: Array<{ accountId: string; platform: string; platformPostId: string }>; error?: { message: string; code?: string } } };
    };
    const facebook = () => addMetaAccount(t, org, 'facebook');
    const instagram = () => addMetaAccount(t, org, 'instagram');
    const photo = () => ({ mediaUrl: `${files.url}/a.jpg` });

    test('edit changes the live facebook post; not_supported for instagram, by accountId or when no target offers it', async () => {
      const [fb, ig] = [await facebook(), await instagram()];
      const post = await published([{ accountId: fb.id }, { accountId: ig.id, platformSpecificData: photo() }]);
      const fbPostId = post.targets[0]?.platformPostId ?? '';
      const start = mark();
      const res = await op(post.id, 'edit', { content: 'Edited text' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.targets?.map((x) => [x.accountId, x.platform, x.platformPostId]), [[fb.id, 'facebook', fbPostId]]);
      assert.equal(t.sandbox.meta.fbPosts.get(fbPostId)?.message, 'Edited text');
      const calls = t.sandbox.journal.list({ host: 'graph.facebook.com', after: start });
      assert.deepEqual(calls.map((e) => [e.method, e.path.replace(/^\/v[\d.]+/, ''), e.body]), [['POST', `/${fbPostId}`, { message: 'Edited text' }]]);

      const byAccount = await op(post.id, 'edit', { content: 'x', accountId: ig.id });
      assert.deepEqual([byAccount.status, byAccount.body.error?.code], [400, 'not_supported']);
      const igOnly = await published([{ accountId: (await instagram()).id, platformSpecificData: photo() }]);
      const none = await op(igOnly.id, 'edit', { content: 'x' });
      assert.deepEqual([none.status, none.body.error?.code], [400, 'not_supported']);
      assert.match(none.body.error?.message ?? '', /only facebook/);
      const notTarget = await op(post.id, 'edit', { content: 'x', accountId: (await facebook()).id });
      assert.deepEqual([notTarget.status, notTarget.body.error?.message], [400, 'accountId: not a target account of this post']);
      assert.equal((await op(post.id, 'edit', {})).status, 400);
    });

    test('unpublish deletes facebook and threads posts; accountId picks one', async () => {
      const [fb, th, fb2] = [await facebook(), await addAccount(t, org, 'threads'), await facebook()];
      const post = await published([{ accountId: fb.id }, { accountId: th.id }, { accountId: fb2.id }], 'To be removed');
      const [fbId = '', thId = '', fb2Id = ''] = post.targets.map((x) => x.platformPostId ?? '');
      const one = await op(post.id, 'unpublish', { accountId: fb2.id });
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.deepEqual(one.body.targets?.map((x) => x.platformPostId), [fb2Id]);
      assert.equal(t.sandbox.meta.fbPosts.has(fb2Id), false);
      assert.equal(t.sandbox.meta.fbPosts.has(fbId), true);
      const start = mark();
      // Without accountId: every published facebook and threads target, in order; the Page post
      // removed above is gone on the platform, so the last one answers invalid_request.
      const res = await op(post.id, 'unpublish', {});
      assert.deepEqual([res.status, res.body.error?.code], [400, 'invalid_request']);
      assert.equal(t.sandbox.meta.fbPosts.has(fbId), false);
      assert.equal(t.sandbox.threads.posts.has(thId), false);
      assert.ok(t.sandbox.journal.list({ host: 'graph.threads.net', after: start }).some((e) => e.method === 'DELETE' && e.path.endsWith(`/${thId}`)));
      const reddit = await published([{ accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } }]);
      assert.equal((await op(reddit.id, 'unpublish', {})).body.error?.code, 'not_supported');
    });

    test('comments-settings with an x-request-id: the retry answers the first answer and calls the platform no more', async () => {
      const post = await published([{ accountId: (await instagram()).id, platformSpecificData: photo() }]);
      const start = mark();
      const send = async () => {
        const res = await t.request(`/api/v1/posts/${post.id}/comments-settings`, { key, method: 'POST', headers: { ...json, 'x-request-id': `switch-${post.id}` }, body: JSON.stringify({ enabled: false }) });
        return { status: res.status, body: await res.json() };
      };
      const first = await send();
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(await send(), first);
      assert.equal(t.sandbox.journal.list({ after: start }).filter((e) => e.method === 'POST').length, 1);
    });

    test('comments-settings turns instagram comments off and on again, on both login flavours', async () => {
      const [fbLogin, igLogin] = [await instagram(), await addMetaAccount(t, org, 'instagram', { login: 'instagram' })];
      const post = await published([{ accountId: fbLogin.id, platformSpecificData: photo() }, { accountId: igLogin.id, platformSpecificData: photo() }]);
      const ids = post.targets.map((x) => x.platformPostId ?? '');
      const start = mark();
      const off = await op(post.id, 'comments-settings', { enabled: false });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.deepEqual(ids.map((id) => t.sandbox.meta.igMedia.get(id)?.commentEnabled), [false, false]);
      assert.deepEqual(t.sandbox.journal.list({ after: start }).map((e) => [e.host, e.body]), [['graph.facebook.com', { comment_enabled: 'false' }], ['graph.instagram.com', { comment_enabled: 'false' }]]);
      assert.equal((await op(post.id, 'comments-settings', { enabled: true, accountId: igLogin.id })).status, 200);
      assert.deepEqual(ids.map((id) => t.sandbox.meta.igMedia.get(id)?.commentEnabled), [false, true]);
      const fbOnly = await published([{ accountId: (await facebook()).id }]);
      assert.equal((await op(fbOnly.id, 'comments-settings', { enabled: false })).body.error?.code, 'not_supported');
      assert.equal((await op(post.id, 'comments-settings', { enabled: 'no' })).status, 400);
    });

    test('409 NOT_PUBLISHED for a draft; 403 approval_required for an approval key or account; 404 for another organization', async () => {
      const fb = await facebook();
      const draft = await createPost(t, key, { content: 'Draft', platforms: [{ accountId: fb.id }] });
      const res = await op(draft.body.post.id, 'edit', { content: 'x' });
      assert.deepEqual([res.status, res.body.error?.code], [409, 'NOT_PUBLISHED']);

      const post = await published([{ accountId: fb.id }]);
      const { key: approvalKey } = await createKey(t.runtime.deps.store.db, t.runtime.deps.clock, org, { approvalRequired: true });
      const byKey = await op(post.id, 'unpublish', {}, approvalKey);
      assert.deepEqual([byKey.status, byKey.body.error?.code], [403, 'approval_required']);
      await t.runtime.deps.store.db.updateTable('accounts').set({ approval_required: 1 }).where('id', '=', fb.id).execute();
      const byAccount = await op(post.id, 'edit', { content: 'x' });
      assert.deepEqual([byAccount.status, byAccount.body.error?.code], [403, 'approval_required']);
      await t.runtime.deps.store.db.updateTable('accounts').set({ approval_required: 0 }).where('id', '=', fb.id).execute();
      assert.ok(t.sandbox.meta.fbPosts.has(post.targets[0]?.platformPostId ?? ''), 'nothing was changed');

      const other = await t.tenant();
      assert.equal((await op(post.id, 'edit', { content: 'x' }, other.key)).status, 404);
      assert.equal((await op(post.id, 'unpublish', {}, other.key)).status, 404);
      assert.equal((await op(post.id, 'comments-settings', { enabled: false }, other.key)).status, 404);
      assert.equal((await op('post_unknown', 'edit', { content: 'x' })).status, 404);
    });

    test('409 reconnect_required for a needs_reconnect account, and when the platform says the token is invalid', async () => {
      const fb = await facebook();
      const post = await published([{ accountId: fb.id }]);
      await t.runtime.deps.store.db.updateTable('accounts').set({ status: 'needs_reconnect' }).where('id', '=', fb.id).execute();
      const start = mark();
      const stored = await op(post.id, 'edit', { content: 'x' });
      assert.deepEqual([stored.status, stored.body.error?.code], [409, 'reconnect_required']);
      assert.equal(t.sandbox.journal.list({ after: start }).length, 0, 'no platform call');

      await t.runtime.deps.store.db.updateTable('accounts').set({ status: 'active' }).where('id', '=', fb.id).execute();
      t.sandbox.revokeToken(fb.token);
      const revoked = await op(post.id, 'edit', { content: 'x' });
      assert.deepEqual([revoked.status, revoked.body.error?.code], [409, 'reconnect_required']);
      const account = await t.runtime.deps.store.db.selectFrom('accounts').select('status').where('id', '=', fb.id).executeTakeFirstOrThrow();
      assert.equal(account.status, 'needs_reconnect');
    });
  });
}
