// The post lifecycle over HTTP, on both stores: statuses after create, PATCH, DELETE and publish
// with every 409 code, listing with the status filter and the 100 most recent, approval held
// and resolved through the operator CLI with its events, idempotency (also under concurrent
// requests), authentication and tenant isolation of every route.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { addAccount, createPost, getPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';

const FUTURE = () => new Date(Date.now() + 3600_000).toISOString();

for (const dialect of DIALECTS) {
  describe(`posts lifecycle [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let idle: PostsApp;
    let key: string;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect);
      idle = await startPostsApp(dialect, { worker: false });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await idle.close();
    });

    const call = (app: PostsApp, k: string, method: string, path: string, body?: unknown) =>
      app.request(`/api/v1${path}`, { key: k, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
    const expectError = async (res: Response, status: number, code?: string) => {
      const body = (await res.json()) as { error: { message: string; code?: string } };
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(body.error.code, code);
    };
    const reddit = async (app: PostsApp, orgId: string, data: Record<string, unknown> = { subreddit: 'sandbox' }, options = {}) => ({ accountId: (await addAccount(app, orgId, 'reddit', options)).id, platformSpecificData: data });
    const events = (app: PostsApp, postId: string) =>
      app.runtime.deps.store.db.selectFrom('events').select(['type', 'data']).where('data', 'like', `%${postId}%`).orderBy('id').execute().then((rows) => rows.map((r) => [r.type, JSON.parse(r.data) as unknown]));
    const cli = (app: PostsApp, ...args: string[]) => runCli(['posts', ...args], { DATABASE_URL: app.database.url, DATA_DIR: app.database.dataDir });

    test('status after create: draft, scheduled, queued', async () => {
      const draft = await createPost(t, key, { content: 'd', platforms: [await reddit(t, org)] });
      assert.deepEqual([draft.status, draft.body.post.status, draft.body.post.scheduledFor], [201, 'draft', null]);
      const at = FUTURE();
      const scheduled = await createPost(t, key, { content: 's', scheduledFor: at, platforms: [await reddit(t, org)] });
      assert.deepEqual([scheduled.body.post.status, scheduled.body.post.scheduledFor], ['scheduled', new Date(at).toISOString()]);
      const live = await createPost(idle, (await idle.tenant()).key, { content: 'q', publishNow: true, platforms: [] });
      assert.equal(live.status, 400);
      const idleTenant = await idle.tenant();
      const queued = await createPost(idle, idleTenant.key, { content: 'q', publishNow: true, platforms: [await reddit(idle, idleTenant.organizationId)] });
      assert.equal(queued.body.post.status, 'queued');
      assert.deepEqual(queued.body.post.targets.map((x) => [x.status, x.attempts, x.platformPostId, x.url, x.error]), [['pending', 0, null, null, null]]);
    });

    test('PATCH replaces content in draft, scheduled, pending_approval and failed; 409 NOT_EDITABLE elsewhere', async () => {
      const draft = (await createPost(t, key, { content: 'old', platforms: [await reddit(t, org)] })).body.post;
      const patched = await call(t, key, 'PATCH', `/posts/${draft.id}`, { content: 'new' });
      assert.equal(patched.status, 200);
      assert.equal(((await patched.json()) as { post: ApiPost }).post.content, 'new');
      await expectError(await call(t, key, 'PATCH', `/posts/${draft.id}`, {}), 400);
      const published = await settled(t, key, (await createPost(t, key, { content: 'p', publishNow: true, platforms: [await reddit(t, org)] })).body.post.id);
      await expectError(await call(t, key, 'PATCH', `/posts/${published.id}`, { content: 'x' }), 409, 'NOT_EDITABLE');
      const failed = await settled(t, key, (await createPost(t, key, { content: 'f', publishNow: true, platforms: [await reddit(t, org, { subreddit: 'nope_not_here' })] })).body.post.id);
      assert.equal(failed.status, 'failed');
      assert.equal((await call(t, key, 'PATCH', `/posts/${failed.id}`, { content: 'fixed' })).status, 200);
      const it = await idle.tenant();
      const queued = (await createPost(idle, it.key, { content: 'q', publishNow: true, platforms: [await reddit(idle, it.organizationId)] })).body.post;
      await expectError(await call(idle, it.key, 'PATCH', `/posts/${queued.id}`, { content: 'x' }), 409, 'NOT_EDITABLE');
    });

    test('publish: draft → queued → published; then 409 ALREADY_PUBLISHED; queued is 409 PUBLISH_IN_PROGRESS', async () => {
      const draft = (await createPost(t, key, { content: 'go', platforms: [await reddit(t, org)] })).body.post;
      const res = await call(t, key, 'POST', `/posts/${draft.id}/publish`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { status: 'queued' });
      assert.equal((await settled(t, key, draft.id)).status, 'published');
      await expectError(await call(t, key, 'POST', `/posts/${draft.id}/publish`), 409, 'ALREADY_PUBLISHED');
      const it = await idle.tenant();
      const queued = (await createPost(idle, it.key, { content: 'q', publishNow: true, platforms: [await reddit(idle, it.organizationId)] })).body.post;
      await expectError(await call(idle, it.key, 'POST', `/posts/${queued.id}/publish`), 409, 'PUBLISH_IN_PROGRESS');
      await expectError(await call(idle, it.key, 'DELETE', `/posts/${queued.id}`), 409, 'PUBLISH_IN_PROGRESS');
    });

    test('publish of a scheduled post starts now and cancels the scheduled dispatch', async () => {
      const post = (await createPost(t, key, { content: 'early', scheduledFor: FUTURE(), platforms: [await reddit(t, org)] })).body.post;
      const dispatches = () => t.runtime.deps.store.db.selectFrom('jobs').select('id').where('dedupe_key', '=', `post.dispatch:${post.id}`).execute();
      assert.equal((await dispatches()).length, 1);
      assert.equal((await call(t, key, 'POST', `/posts/${post.id}/publish`)).status, 200);
      assert.equal((await dispatches()).length, 0);
      assert.equal((await settled(t, key, post.id)).status, 'published');
    });

    test('publish of failed and partial posts retries only the failed targets, attempts reset', async () => {
      t.sandbox.faults.add({ host: 'oauth.reddit.com', path: '/api/submit', kind: 'error', code: 'SUBREDDIT_NOTALLOWED', message: 'you are not allowed to post there', times: 1 });
      const post = (await createPost(t, key, { content: 'two', publishNow: true, platforms: [await reddit(t, org), await reddit(t, org)] })).body.post;
      const partial = await settled(t, key, post.id);
      assert.equal(partial.status, 'partial');
      assert.deepEqual(partial.targets.map((x) => x.status), ['failed', 'published']);
      assert.match(partial.targets[0]?.error ?? '', /SUBREDDIT_NOTALLOWED/);
      assert.deepEqual(await events(t, post.id), [['post.failed', { postId: post.id, status: 'partial' }]]);
      const before = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      assert.equal((await call(t, key, 'POST', `/posts/${post.id}/publish`)).status, 200);
      const done = await settled(t, key, post.id, ['published']);
      assert.deepEqual(done.targets.map((x) => [x.status, x.attempts, x.error]), [['published', 1, null], ['published', 1, null]]);
      assert.equal(done.targets[1]?.platformPostId, partial.targets[1]?.platformPostId, 'the published target was left alone');
      assert.equal(t.sandbox.journal.list({ host: 'oauth.reddit.com', path: '/api/submit', after: before }).length, 1);
    });

    test('DELETE: scheduled (jobs cancelled), draft, published, failed; 404 afterwards', async () => {
      const scheduled = (await createPost(t, key, { content: 's', scheduledFor: FUTURE(), platforms: [await reddit(t, org)] })).body.post;
      const res = await call(t, key, 'DELETE', `/posts/${scheduled.id}`);
      assert.deepEqual([res.status, await res.json()], [200, { deleted: true }]);
      assert.equal((await t.runtime.deps.store.db.selectFrom('jobs').select('id').where('dedupe_key', '=', `post.dispatch:${scheduled.id}`).execute()).length, 0);
      assert.equal((await t.runtime.deps.store.db.selectFrom('post_targets').select('id').where('post_id', '=', scheduled.id).execute()).length, 0);
      await expectError(await call(t, key, 'GET', `/posts/${scheduled.id}`), 404);
      await expectError(await call(t, key, 'DELETE', `/posts/${scheduled.id}`), 404);
      const published = await settled(t, key, (await createPost(t, key, { content: 'p', publishNow: true, platforms: [await reddit(t, org)] })).body.post.id);
      assert.equal((await call(t, key, 'DELETE', `/posts/${published.id}`)).status, 200);
      assert.equal(t.sandbox.reddit.things.get(published.targets[0]?.platformPostId ?? '')?.deleted, false, 'the post stays on the platform');
    });

    test('GET /posts: newest first, status filter, 100 most recent, with targets', async () => {
      const tenant = await t.tenant();
      const target = await reddit(t, tenant.organizationId);
      const ids: string[] = [];
      for (let i = 0; i < 101; i++) ids.push((await createPost(t, tenant.key, { content: `n${i}`, platforms: [target] })).body.post.id);
      const scheduled = (await createPost(t, tenant.key, { content: 'sch', scheduledFor: FUTURE(), platforms: [target] })).body.post;
      const list = (await (await call(t, tenant.key, 'GET', '/posts')).json()) as { posts: ApiPost[] };
      assert.equal(list.posts.length, 100);
      assert.deepEqual(list.posts.slice(0, 3).map((p) => p.id), [scheduled.id, ids[100], ids[99]]);
      assert.equal(list.posts[1]?.targets.length, 1);
      const only = (await (await call(t, tenant.key, 'GET', '/posts?status=scheduled')).json()) as { posts: ApiPost[] };
      assert.deepEqual(only.posts.map((p) => p.id), [scheduled.id]);
      await expectError(await call(t, tenant.key, 'GET', '/posts?status=lost'), 400);
    });

    test('approval: organization, key or account holds live posts; the CLI approves and rejects', async () => {
      const orgApproval = await t.tenant({ approval: true });
      const keyApproval = await t.tenant({ approvalRequired: true });
      const plain = await t.tenant();
      const held = async (tenant: { key: string; organizationId: string }, accountOptions = {}) =>
        (await createPost(t, tenant.key, { content: 'held', publishNow: true, platforms: [await reddit(t, tenant.organizationId, { subreddit: 'sandbox' }, accountOptions)] })).body.post;
      const byOrg = await held(orgApproval);
      const byKey = await held(keyApproval);
      const byAccount = await held(plain, { approval: true });
      for (const post of [byOrg, byKey, byAccount]) {
        assert.equal(post.status, 'pending_approval');
        assert.deepEqual(await events(t, post.id), [['post.pending_approval', { postId: post.id }]]);
      }
      const draft = (await createPost(t, orgApproval.key, { content: 'not live', platforms: [await reddit(t, orgApproval.organizationId)] })).body.post;
      assert.equal(draft.status, 'draft', 'drafts are not held');
      const publish = await call(t, orgApproval.key, 'POST', `/posts/${draft.id}/publish`);
      assert.deepEqual([publish.status, await publish.json()], [202, { status: 'pending_approval' }]);
      await expectError(await call(t, orgApproval.key, 'POST', `/posts/${draft.id}/publish`), 409, 'APPROVAL_REQUIRED');
      assert.equal((await call(t, orgApproval.key, 'PATCH', `/posts/${draft.id}`, { content: 'edited while held' })).status, 200);

      const approved = await cli(t, 'approve', byOrg.id);
      assert.deepEqual([approved.code, approved.stdout.trim()], [0, `${byOrg.id}\tqueued`]);
      assert.equal((await settled(t, orgApproval.key, byOrg.id)).status, 'published');
      assert.deepEqual((await events(t, byOrg.id)).map((e) => e[0]), ['post.pending_approval', 'post.approved', 'post.published']);
      assert.deepEqual((await events(t, byOrg.id))[1], ['post.approved', { postId: byOrg.id, status: 'queued' }]);

      const rejected = await cli(t, 'reject', byKey.id, '--reason', 'off brand');
      assert.deepEqual([rejected.code, rejected.stdout.trim()], [0, `${byKey.id}\trejected`]);
      assert.equal((await getPost(t, keyApproval.key, byKey.id)).status, 'rejected');
      assert.deepEqual((await events(t, byKey.id)).at(-1), ['post.rejected', { postId: byKey.id, status: 'rejected' }]);
      await expectError(await call(t, keyApproval.key, 'POST', `/posts/${byKey.id}/publish`), 409, 'REJECTED');
      await expectError(await call(t, keyApproval.key, 'PATCH', `/posts/${byKey.id}`, { content: 'x' }), 409, 'NOT_EDITABLE');

      assert.equal((await cli(t, 'approve', byKey.id)).code, 1, 'not pending any more');
      assert.equal((await cli(t, 'approve', 'post_unknown')).code, 1);
      assert.equal((await cli(t, 'approve')).code, 2);
      assert.equal((await cli(t, 'promote', byAccount.id)).code, 2);
      assert.equal((await cli(t, 'approve', byAccount.id, '--reason', 'x')).code, 2, '--reason is for reject');
    });

    test('approval of a scheduled post keeps its time; editing an approved post asks for approval again', async () => {
      const tenant = await t.tenant({ approval: true });
      const post = (await createPost(t, tenant.key, { content: 'later', scheduledFor: FUTURE(), platforms: [await reddit(t, tenant.organizationId)] })).body.post;
      assert.equal(post.status, 'pending_approval');
      assert.equal((await cli(t, 'approve', post.id)).stdout.trim(), `${post.id}\tscheduled`);
      assert.equal((await getPost(t, tenant.key, post.id)).status, 'scheduled');
      assert.equal((await call(t, tenant.key, 'PATCH', `/posts/${post.id}`, { content: 'changed' })).status, 200);
      assert.equal((await getPost(t, tenant.key, post.id)).status, 'pending_approval');
      assert.deepEqual((await events(t, post.id)).map((e) => e[0]), ['post.pending_approval', 'post.approved', 'post.pending_approval']);
      assert.equal((await t.runtime.deps.store.db.selectFrom('jobs').select('id').where('dedupe_key', '=', `post.dispatch:${post.id}`).execute()).length, 0);
    });

    test('idempotency: replay 200, other body 409 IDEMPOTENCY_KEY_REUSED, a failed request frees the key, per organization', async () => {
      const target = await reddit(t, org);
      const body = { content: 'once', platforms: [target] };
      const first = await createPost(t, key, body, { 'x-request-id': 'req-1' });
      const replay = await createPost(t, key, { platforms: [target], content: 'once' }, { 'x-request-id': 'req-1' });
      assert.deepEqual([first.status, replay.status, replay.body.post.id], [201, 200, first.body.post.id]);
      const reused = await createPost(t, key, { ...body, content: 'twice' }, { 'x-request-id': 'req-1' });
      assert.deepEqual([reused.status, reused.body.error?.code], [409, 'IDEMPOTENCY_KEY_REUSED']);
      const bad = await createPost(t, key, { content: 'x', platforms: [{ accountId: 'acc_nope' }] }, { 'x-request-id': 'req-2' });
      assert.equal(bad.status, 400);
      assert.equal((await createPost(t, key, body, { 'x-request-id': 'req-2' })).status, 201);
      const other = await t.tenant();
      assert.equal((await createPost(t, other.key, { content: 'once', platforms: [await reddit(t, other.organizationId)] }, { 'x-request-id': 'req-1' })).status, 201);
    });

    test('idempotency under concurrent requests: one post, the others 409 REQUEST_IN_PROGRESS or a replay', async () => {
      const target = await reddit(t, org);
      const body = { content: 'concurrent', publishNow: true, platforms: [target] };
      const results = await Promise.all(Array.from({ length: 12 }, () => createPost(t, key, body, { 'x-request-id': 'race-1' })));
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
      for (const r of results.filter((x) => x.status !== 201)) {
        assert.ok(r.status === 200 || (r.status === 409 && r.body.error?.code === 'REQUEST_IN_PROGRESS'), JSON.stringify(r.body));
      }
      const created = results.find((r) => r.status === 201)?.body.post.id;
      const posts = await t.runtime.deps.store.db.selectFrom('posts').select('id').where('content', '=', 'concurrent').execute();
      assert.deepEqual(posts.map((p) => p.id), [created]);
      assert.equal((await settled(t, key, created ?? '')).targets[0]?.attempts, 1);
      assert.equal(t.sandbox.journal.list({ path: '/api/submit' }).filter((e) => (e.body as { title?: string }).title === 'concurrent').length, 1, 'published once');
    });

    test('every route needs a key and hides other organizations\' posts', async () => {
      const post = (await createPost(t, key, { content: 'mine', platforms: [await reddit(t, org)] })).body.post;
      const stranger = await t.tenant();
      const routes: Array<[string, string, unknown?]> = [['GET', '/posts'], ['POST', '/posts', { content: 'x', platforms: [] }], ['GET', `/posts/${post.id}`], ['PATCH', `/posts/${post.id}`, { content: 'x' }], ['DELETE', `/posts/${post.id}`], ['POST', `/posts/${post.id}/publish`]];
      for (const [method, path, body] of routes) {
        const res = await t.request(`/api/v1${path}`, { method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
        assert.equal(res.status, 401, `${method} ${path}`);
        if (path !== '/posts') await expectError(await call(t, stranger.key, method, path, body), 404);
      }
      const list = (await (await call(t, stranger.key, 'GET', '/posts')).json()) as { posts: ApiPost[] };
      assert.equal(list.posts.length, 0);
      const foreign = await createPost(t, stranger.key, { content: 'x', platforms: [{ accountId: post.targets[0]?.accountId }] });
      assert.equal(foreign.body.error?.message, 'platforms[0].accountId: no such account');
      assert.equal((await getPost(t, key, post.id)).content, 'mine');
      await waitFor(() => true);
    });
  });
}
