// The sandbox's comment surfaces added for issue 14, over HTTP: reddit's comment tree
// (`/comments/{article}`: nesting, depth and its "continue this thread" stub, `comment`, sort,
// more stubs, deleted comments with replies) and
// `POST /_sandbox/reddit/comments`; threads' `POST /_sandbox/threads/replies`,
// `is_reply_owned_by_me` and `manage_reply` without `hide`; the control routes' 400s.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { sandbox } from './helpers.ts';

const UA = 'web:com.example.socialapi:v1.0.0 (by /u/sandbox)';

type Child = { kind: string; data: Record<string, unknown> & { replies?: unknown } };
/** The children of a Listing; none for reddit's "" (no replies). */
const children = (listing: unknown): Child[] => (listing && typeof listing === 'object' ? ((listing as { data?: { children?: Child[] } }).data?.children ?? []) : []);

describe('sandbox comment control and trees', () => {
  let sb: RunningSandbox;
  const control = (path: string, body: unknown) => fetch(`${sb.url}/_sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  test('reddit: people comment and reply; the tree nests replies, honours sort, depth and limit, keeps a deleted comment that has replies', async () => {
    const user = sb.state.addRedditUser();
    const token = 'reddit-tree-token-xxxxxxxx';
    sb.state.issueToken({ value: token, platform: 'reddit', type: 'user', clientId: 'c', subjectId: user.id, userId: user.id, scopes: ['submit', 'read', 'edit'], declined: [], pageIds: [], ttlSeconds: 3600, longLived: false });
    const api = (method: string, path: string, params?: Record<string, string>) =>
      fetch(`${sb.url}/oauth.reddit.com${path}`, { method, headers: { authorization: `bearer ${token}`, 'user-agent': UA }, body: params ? new URLSearchParams(params) : undefined });
    const submitted = (await (await api('POST', '/api/submit', { api_type: 'json', sr: 'sandbox', kind: 'self', title: 'Tree', text: '' })).json()) as { json: { data: { name: string } } };
    const link = submitted.json.data.name;

    const bad = await control('reddit/comments', { thingId: 't3_nope', text: 'hi' });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /no link or comment t3_nope/);
    assert.equal((await control('reddit/comments', { thingId: link })).status, 400);

    const top = (await (await control('reddit/comments', { thingId: link, text: 'top', from: { username: 'dana_w' } })).json()) as { id: string; author: string };
    assert.equal(top.author, 'dana_w');
    sb.state.clock.advance(1000);
    const reply = (await (await control('reddit/comments', { thingId: top.id, text: 'reply', from: { username: 'sam_k' } })).json()) as { id: string };
    sb.state.clock.advance(1000);
    const deep = (await (await control('reddit/comments', { thingId: reply.id, text: 'deeper' })).json()) as { id: string };
    sb.state.clock.advance(1000);
    const later = (await (await control('reddit/comments', { thingId: link, text: 'later' })).json()) as { id: string };

    const tree = async (query: string) => ((await (await api('GET', `/comments/${link.slice(3)}?${query}`)).json()) as unknown[])[1];
    const old = children(await tree('sort=old'));
    assert.deepEqual(old.map((c) => c.data.name), [top.id, later.id]);
    const nested = children(old[0]?.data.replies);
    assert.deepEqual(nested.map((c) => [c.data.name, c.data.parent_id, c.data.depth, c.data.author]), [[reply.id, top.id, 1, 'sam_k']]);
    assert.deepEqual(children(nested[0]?.data.replies).map((c) => c.data.name), [deep.id]);
    assert.equal(old[1]?.data.replies, '');
    assert.deepEqual(children(await tree('sort=new')).map((c) => c.data.name), [later.id, top.id]);
    // Past the depth, reddit's "continue this thread" stub; `comment` reads the thread under it.
    const shallow = children(children(await tree('sort=old&depth=1'))[0]?.data.replies);
    assert.deepEqual(shallow.map((c) => [c.kind, c.data.id, c.data.parent_id, c.data.count, c.data.children]), [['more', '_', top.id, 0, []]]);
    const thread = children(await tree(`sort=old&comment=${top.id.slice(3)}`));
    assert.deepEqual(thread.map((c) => c.data.name), [top.id]);
    assert.deepEqual(children(thread[0]?.data.replies).map((c) => c.data.name), [reply.id]);
    assert.equal((await api('GET', `/comments/${link.slice(3)}?comment=zzzzzz`)).status, 404);
    const limited = children(await tree('sort=old&limit=3'));
    assert.deepEqual(limited.map((c) => c.kind), ['t1', 'more']);

    const byUser = sb.state.reddit.things.get(reply.id);
    assert.ok(byUser);
    byUser.deleted = true;
    const afterDelete = children(children(await tree('sort=old'))[0]?.data.replies);
    assert.deepEqual(afterDelete.map((c) => [c.data.author, c.data.body]), [['[deleted]', '[deleted]']]);
    assert.equal((await api('GET', '/comments/zzzzzz')).status, 404);
    assert.equal((await api('GET', `/r/other/comments/${link.slice(3)}`)).status, 404);
  });

  test('threads: a person replies; is_reply_owned_by_me answers for the reader; manage_reply needs hide', async () => {
    const owner = sb.state.addThreadsUser();
    const token = 'threads-tree-token-xxxxxxxx';
    sb.state.issueToken({ value: token, platform: 'threads', type: 'user', clientId: 'c', subjectId: owner.id, userId: owner.id, scopes: ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_replies'], declined: [], pageIds: [], ttlSeconds: 3600, longLived: false });
    const graph = async (method: string, path: string, params: Record<string, string> = {}) => {
      const res = await fetch(`${sb.url}/graph.threads.net/v1.0${path}${method === 'GET' ? `?${new URLSearchParams(params).toString()}` : ''}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
        body: method === 'GET' ? undefined : new URLSearchParams(params),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const container = await graph('POST', `/${owner.id}/threads`, { media_type: 'TEXT', text: 'root' });
    const root = String((await graph('POST', `/${owner.id}/threads_publish`, { creation_id: String(container.body.id) })).body.id);

    assert.equal((await control('threads/replies', { replyToId: '0', text: 'x' })).status, 400);
    assert.equal((await control('threads/replies', { replyToId: root })).status, 400);
    const theirs = (await (await control('threads/replies', { replyToId: root, text: 'hello', from: { username: 'dana.threads' } })).json()) as { id: string; username: string };
    assert.equal(theirs.username, 'dana.threads');
    const mine = await graph('POST', `/${owner.id}/threads`, { media_type: 'TEXT', text: 'hi Dana', reply_to_id: theirs.id });
    const mineId = String((await graph('POST', `/${owner.id}/threads_publish`, { creation_id: String(mine.body.id) })).body.id);

    const replies = await graph('GET', `/${root}/replies`, { fields: 'id,username,is_reply_owned_by_me,has_replies,hide_status' });
    assert.deepEqual(replies.body.data, [{ id: theirs.id, username: 'dana.threads', is_reply_owned_by_me: false, has_replies: true, hide_status: 'NOT_HUSHED' }]);
    const under = await graph('GET', `/${theirs.id}/replies`, { fields: 'id,is_reply_owned_by_me,replied_to' });
    assert.deepEqual(under.body.data, [{ id: mineId, is_reply_owned_by_me: true, replied_to: { id: theirs.id } }]);

    const noHide = await graph('POST', `/${theirs.id}/manage_reply`);
    assert.equal(noHide.status, 400);
    assert.equal((noHide.body.error as { code: number }).code, 100);
    assert.equal((await graph('POST', `/${theirs.id}/manage_reply`, { hide: 'true' })).body.success, true);
    assert.equal(sb.state.threads.posts.get(theirs.id)?.hidden, true);
  });
});
