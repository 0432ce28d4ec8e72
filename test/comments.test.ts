// The comment operations (issue 14) over HTTP against the in-process sandbox, on both stores:
// lists with paging and an opaque cursor, replies, top-level comments, hide, like and delete with
// the request that reached the sandbox and its state after; not_supported, approval 403,
// reconnect 409, another organization's account or post 404 and a missing accountId 400, none
// of them with a platform call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey } from '../src/modules/keys/service.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addMetaAccount, quickMetaProcessing } from './posts-meta-support.ts';
import { addAccount, createPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';

interface Comment {
  id: string;
  platform: string;
  accountId: string;
  platformPostId: string;
  postId: string | null;
  text: string;
  username: string | null;
  parentId: string | null;
  createdAt: string | null;
  hidden: boolean;
  likeCount: number;
  isOwn: boolean;
}
interface Answer {
  comments?: Comment[];
  after?: string | null;
  errors?: Array<{ accountId: string; error: { message: string; code?: string } }>;
  mentions?: Array<{ mediaId: string; username: string | null; accountId: string }>;
  ok?: boolean;
  id?: string;
  error?: { message: string; code?: string };
}

for (const dialect of DIALECTS) {
  describe(`comment operations [${dialect}]`, { skip: skipReason(dialect) }, () => {
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
    const callsSince = (seq: number) => t.sandbox.journal.list({ after: seq }).filter((e) => !e.path.startsWith('/_sandbox'));
    const api = async (method: string, path: string, body?: unknown, apiKey = key): Promise<{ status: number; body: Answer }> => {
      const res = await t.request(`/api/v1${path}`, { key: apiKey, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Answer };
    };
    const control = async (path: string, body: unknown): Promise<{ id: string }> => {
      const res = await fetch(`${t.url}/sandbox/_sandbox/${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
      const answer = (await res.json()) as { id: string };
      assert.equal(res.status, 200, JSON.stringify(answer));
      return answer;
    };
    const published = async (platforms: unknown[]): Promise<ApiPost> => {
      const res = await createPost(t, key, { content: 'Fresh bread today', publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      return post;
    };
    const photo = () => ({ mediaUrl: `${files.url}/a.jpg` });
    const code = (res: { status: number; body: Answer }) => [res.status, res.body.error?.code ?? res.body.error?.message];

    test('facebook: list with paging, reply, comment, hide and unhide, like and unlike, delete', async () => {
      const fb = await addMetaAccount(t, org, 'facebook');
      const post = await published([{ accountId: fb.id }]);
      const fbPostId = post.targets[0]?.platformPostId ?? '';
      const first = await control('meta/comments', { objectId: fbPostId, message: 'how much?', from: { name: 'Dana W' } });
      t.sandbox.clock.advance(1000);
      const second = await control('meta/comments', { objectId: fbPostId, message: 'yum', from: { name: 'Lee P' } });

      let seq = mark();
      const one = await api('GET', `/inbox/comments?accountId=${fb.id}&platformPostId=${fbPostId}&limit=1`);
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.deepEqual(one.body.comments?.map((c) => [c.id, c.platform, c.accountId, c.platformPostId, c.postId, c.text, c.username, c.parentId, c.hidden, c.isOwn]), [
        [first.id, 'facebook', fb.id, fbPostId, post.id, 'how much?', 'Dana W', null, false, false],
      ]);
      assert.match(one.body.comments?.[0]?.createdAt ?? '', /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual(callsSince(seq).map((e) => [e.method, e.path.replace(/^\/v[\d.]+/, ''), e.query.limit]), [['GET', `/${fbPostId}/comments`, '1']]);
      assert.ok(one.body.after, 'a next page');
      const two = await api('GET', `/inbox/comments?postId=${post.id}&limit=1&after=${encodeURIComponent(one.body.after ?? '')}`);
      assert.deepEqual([two.body.comments?.map((c) => c.id), two.body.after], [[second.id], null]);
      assert.deepEqual(code(await api('GET', `/inbox/comments?postId=${post.id}&after=nonsense`)), [400, 'after: not a cursor of this API']);

      seq = mark();
      const reply = await api('POST', `/inbox/comments/${first.id}/reply`, { accountId: fb.id, text: 'Five euros' });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(callsSince(seq).map((e) => [e.method, e.path.replace(/^\/v[\d.]+/, ''), e.body]), [['POST', `/${first.id}/comments`, { message: 'Five euros' }]]);
      const created = await api('POST', '/inbox/comments', { accountId: fb.id, platformPostId: fbPostId, text: 'Ask us' });
      assert.equal(t.sandbox.meta.fbComments.get(created.body.id ?? '')?.fromId, fb.platformUserId);
      const listed = await api('GET', `/inbox/comments?postId=${post.id}`);
      assert.deepEqual(listed.body.comments?.filter((c) => c.isOwn).map((c) => [c.id, c.parentId]), [[reply.body.id, first.id], [created.body.id, null]]);

      const theirs = second.id;
      assert.equal((await api('POST', `/inbox/comments/${theirs}/hide`, { accountId: fb.id })).status, 200);
      assert.equal(t.sandbox.meta.fbComments.get(theirs)?.hidden, true);
      assert.equal((await api('DELETE', `/inbox/comments/${theirs}/hide?accountId=${fb.id}`)).status, 200);
      assert.equal(t.sandbox.meta.fbComments.get(theirs)?.hidden, false);
      assert.equal((await api('POST', `/inbox/comments/${theirs}/like?accountId=${fb.id}`)).status, 200);
      assert.equal(t.sandbox.meta.fbComments.get(theirs)?.likeCount, 1);
      assert.equal((await api('DELETE', `/inbox/comments/${theirs}/like?accountId=${fb.id}`)).status, 200);
      assert.equal(t.sandbox.meta.fbComments.get(theirs)?.likeCount, 0);
      seq = mark();
      assert.equal((await api('DELETE', `/inbox/comments/${theirs}?accountId=${fb.id}`)).status, 200);
      assert.deepEqual(callsSince(seq).map((e) => [e.method, e.path.replace(/^\/v[\d.]+/, '')]), [['DELETE', `/${theirs}`]]);
      assert.equal(t.sandbox.meta.fbComments.has(theirs), false);
    });

    test('instagram: list by post, reply, hide, delete, mentions; like is not_supported without a platform call', async () => {
      const ig = await addMetaAccount(t, org, 'instagram');
      const post = await published([{ accountId: ig.id, platformSpecificData: photo() }]);
      const mediaId = post.targets[0]?.platformPostId ?? '';
      const theirs = await control('meta/comments', { objectId: mediaId, message: 'lovely', from: { username: 'dana.w' } });
      const listed = await api('GET', `/inbox/comments?postId=${post.id}`);
      assert.deepEqual(listed.body.comments?.map((c) => [c.id, c.username, c.postId]), [[theirs.id, 'dana.w', post.id]]);
      const reply = await api('POST', `/inbox/comments/${theirs.id}/reply`, { accountId: ig.id, text: 'thanks!' });
      assert.equal(t.sandbox.meta.igComments.get(reply.body.id ?? '')?.fromId, ig.platformUserId);
      assert.equal((await api('POST', `/inbox/comments/${theirs.id}/hide`, { accountId: ig.id })).status, 200);
      assert.equal(t.sandbox.meta.igComments.get(theirs.id)?.hidden, true);
      const seq = mark();
      assert.deepEqual(code(await api('POST', `/inbox/comments/${theirs.id}/like`, { accountId: ig.id })), [400, 'not_supported']);
      assert.deepEqual(callsSince(seq), []);
      assert.equal((await api('DELETE', `/inbox/comments/${theirs.id}?accountId=${ig.id}`)).status, 200);
      assert.equal(t.sandbox.meta.igComments.has(theirs.id), false);

      const tagged = await control('meta/mentions', { accountId: ig.platformUserId, kind: 'tag', from: { username: 'bakery.fan' } });
      const mentions = await api('GET', `/accounts/${ig.id}/mentions`);
      assert.equal(mentions.status, 200, JSON.stringify(mentions.body));
      assert.ok(mentions.body.mentions?.some((m) => m.username === 'bakery.fan' && m.accountId === ig.id && m.mediaId === (tagged as unknown as { mediaId: string }).mediaId));
    });

    test('threads: reply and hide; delete, like and mentions are not_supported; reddit lists only through the post', async () => {
      const th = await addAccount(t, org, 'threads');
      const rd = await addAccount(t, org, 'reddit');
      const post = await published([{ accountId: th.id }, { accountId: rd.id, platformSpecificData: { subreddit: 'sandbox', title: 'Bread' } }]);
      const [thPostId = '', rdPostId = ''] = post.targets.map((x) => x.platformPostId ?? '');
      const theirs = await control('threads/replies', { replyToId: thPostId, text: 'nice!', from: { username: 'dana.threads' } });
      const onReddit = await control('reddit/comments', { thingId: rdPostId, text: 'upvoted', from: { username: 'crumb' } });

      const reply = await api('POST', `/inbox/comments/${theirs.id}/reply`, { accountId: th.id, text: 'thank you' });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(t.sandbox.threads.posts.get(reply.body.id ?? '')?.replyToId, theirs.id);
      assert.equal((await api('POST', `/inbox/comments/${theirs.id}/hide`, { accountId: th.id })).status, 200);
      assert.equal(t.sandbox.threads.posts.get(theirs.id)?.hidden, true);
      const seq = mark();
      assert.deepEqual(code(await api('DELETE', `/inbox/comments/${theirs.id}?accountId=${th.id}`)), [400, 'not_supported']);
      assert.deepEqual(code(await api('POST', `/inbox/comments/${theirs.id}/like`, { accountId: th.id })), [400, 'not_supported']);
      assert.deepEqual(code(await api('GET', `/accounts/${th.id}/mentions`)), [400, 'not_supported']);
      assert.deepEqual(code(await api('GET', `/inbox/comments?accountId=${rd.id}&platformPostId=${rdPostId}`)), [400, 'not_supported']);
      assert.deepEqual(code(await api('POST', `/inbox/comments/${onReddit.id}/hide`, { accountId: rd.id })), [400, 'not_supported']);
      assert.deepEqual(callsSince(seq), []);

      // By the post: both platforms' comments, replies after their parent.
      const all = await api('GET', `/posts/${post.id}/comments`);
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.deepEqual(all.body.errors, []);
      assert.deepEqual(all.body.comments?.map((c) => [c.platform, c.id, c.parentId]), [
        ['threads', theirs.id, null],
        ['threads', reply.body.id, theirs.id],
        ['reddit', onReddit.id, null],
      ]);
      // POST /comments/{id}/reply answers as the target's account.
      const answered = await api('POST', `/comments/${onReddit.id}/reply`, { platformPostId: rdPostId, text: 'thanks, crumb' });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      const sent = t.sandbox.journal.list({ after: seq }).filter((e) => e.path === '/api/comment').at(-1);
      const fields = new Map(Object.entries(sent?.body ?? {}));
      assert.deepEqual([fields.get('thing_id'), fields.get('text')], [onReddit.id, 'thanks, crumb']);
      assert.deepEqual(code(await api('POST', `/comments/${onReddit.id}/reply`, { platformPostId: 't3_unknown', text: 'x' })), [404, 'Published post not found']);
    });

    test('one failing platform does not hide the others; its auth failure marks the account needs_reconnect', async () => {
      const fb = await addMetaAccount(t, org, 'facebook');
      const th = await addAccount(t, org, 'threads');
      const post = await published([{ accountId: fb.id }, { accountId: th.id }]);
      const thPostId = post.targets[1]?.platformPostId ?? '';
      const theirs = await control('threads/replies', { replyToId: thPostId, text: 'hello' });
      t.sandbox.expireToken(fb.token);
      const all = await api('GET', `/posts/${post.id}/comments`);
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.deepEqual(all.body.comments?.map((c) => c.id), [theirs.id]);
      assert.deepEqual(all.body.errors?.map((e) => [e.accountId, e.error.code]), [[fb.id, 'reconnect_required']]);
      const account = await t.runtime.deps.store.db.selectFrom('accounts').select('status').where('id', '=', fb.id).executeTakeFirstOrThrow();
      assert.equal(account.status, 'needs_reconnect');
      const seq = mark();
      assert.deepEqual(code(await api('POST', '/inbox/comments', { accountId: fb.id, platformPostId: post.targets[0]?.platformPostId, text: 'hi' })), [409, 'reconnect_required']);
      assert.deepEqual(callsSince(seq), []);
    });

    test('approval 403, reconnect 409, another organization 404 and a missing accountId 400, none reaching the platform', async () => {
      const held = await addMetaAccount(t, org, 'facebook', { approval: true });
      const stale = await addMetaAccount(t, org, 'facebook', { status: 'needs_reconnect' });
      const fb = await addMetaAccount(t, org, 'facebook');
      const post = await published([{ accountId: fb.id }]);
      const other = await t.tenant();
      const approvalKey = (await createKey(t.runtime.deps.store.db, t.runtime.deps.clock, org, { approvalRequired: true })).key;
      const seq = mark();
      for (const [method, path, body] of [
        ['POST', '/inbox/comments/c1/reply', { accountId: held.id, text: 'x' }],
        ['POST', '/inbox/comments', { accountId: held.id, platformPostId: 'p1', text: 'x' }],
        ['POST', '/inbox/comments/c1/hide', { accountId: held.id }],
        ['DELETE', `/inbox/comments/c1/like?accountId=${held.id}`, undefined],
        ['DELETE', `/inbox/comments/c1?accountId=${held.id}`, undefined],
      ] as const) {
        assert.deepEqual(code(await api(method, path, body)), [403, 'approval_required'], `${method} ${path}`);
      }
      assert.deepEqual(code(await api('POST', '/inbox/comments/c1/hide', { accountId: fb.id }, approvalKey)), [403, 'approval_required']);
      assert.deepEqual(code(await api('POST', `/comments/c1/reply`, { platformPostId: post.targets[0]?.platformPostId, text: 'x' }, approvalKey)), [403, 'approval_required']);
      assert.deepEqual(callsSince(seq), []);
      assert.equal((await api('GET', `/inbox/comments?postId=${post.id}`, undefined, approvalKey)).status, 200, 'reads are allowed');
      const readSeq = mark();
      assert.deepEqual(code(await api('POST', '/inbox/comments/c1/hide', { accountId: stale.id })), [409, 'reconnect_required']);
      assert.deepEqual(code(await api('GET', `/inbox/comments?accountId=${stale.id}&platformPostId=p1`)), [409, 'reconnect_required']);
      assert.deepEqual(code(await api('POST', '/inbox/comments/c1/hide', { accountId: fb.id }, other.key)), [404, 'Account not found']);
      assert.deepEqual(code(await api('GET', `/inbox/comments?postId=${post.id}`, undefined, other.key)), [404, 'Post not found']);
      assert.deepEqual(code(await api('GET', `/posts/${post.id}/comments`, undefined, other.key)), [404, 'Post not found']);
      assert.deepEqual(code(await api('GET', `/accounts/${fb.id}/mentions`, undefined, other.key)), [404, 'Account not found']);
      assert.deepEqual(code(await api('POST', `/comments/c1/reply`, { platformPostId: post.targets[0]?.platformPostId, text: 'x' }, other.key)), [404, 'Published post not found']);
      assert.deepEqual(code(await api('POST', '/inbox/comments/c1/hide', {})), [400, 'accountId: required']);
      assert.deepEqual(code(await api('DELETE', '/inbox/comments/c1/like')), [400, 'accountId: required']);
      assert.equal((await api('POST', '/inbox/comments/c1/reply', { text: 'x' })).body.error?.message.includes('accountId'), true);
      assert.equal((await api('DELETE', '/inbox/comments/c1')).body.error?.message.includes('accountId'), true);
      assert.deepEqual(callsSince(readSeq), []);
    });
  });
}
