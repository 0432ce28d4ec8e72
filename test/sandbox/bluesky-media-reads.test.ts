// Bluesky against the sandbox (platforms/bluesky.md §5, §6): uploadBlob (content-addressed, the
// cap), the video service (service tokens, limits, jobs on the sandbox clock, the blob in a video
// embed), the app.bsky reads (threads with the threadgate, posts and counts, author feeds,
// profiles), the notifications derived from other people's records, the control routes that make
// them, and the state file across a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { jpeg, mp4, png } from '../fixtures/media.ts';
import { at, control, HANDLE, now, signIn, str, xrpc, type Answer, type Session } from './bluesky-helpers.ts';
import { sandbox } from './helpers.ts';

const POST = 'app.bsky.feed.post';

describe('bluesky media, reads and notifications', () => {
  let sb: RunningSandbox;
  let pds: ReturnType<typeof xrpc>;
  let video: ReturnType<typeof xrpc>;
  let session: Session;

  const create = async (record: Record<string, unknown>, token = session.accessJwt, repo = session.did): Promise<{ uri: string; cid: string }> => {
    const res = await pds.post('com.atproto.repo.createRecord', { repo, collection: POST, record: { $type: POST, createdAt: now(sb), ...record } }, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { uri: str(res.body, 'uri'), cid: str(res.body, 'cid') };
  };
  const refused = (res: Answer, status: number, error: string, message?: RegExp) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.error, error, JSON.stringify(res.body));
    if (message) assert.match(String(res.body.message), message);
  };
  const serviceToken = async (aud: string, lxm: string, exp?: number): Promise<string> => {
    const res = await pds.get('com.atproto.server.getServiceAuth', { aud, lxm, ...(exp ? { exp: String(exp) } : {}) }, session.accessJwt);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return str(res.body, 'token');
  };
  const nowSeconds = () => Math.floor(sb.state.clock.now() / 1000);

  before(async () => {
    sb = await sandbox();
    pds = xrpc(sb);
    video = xrpc(sb, 'video.bsky.app');
    session = await signIn(sb);
  });
  after(() => sb.close());

  test('uploadBlob: a blob ref; the same bytes give the same ref; the type is read from the bytes; over the cap 413', async () => {
    const first = await pds.bytes('com.atproto.repo.uploadBlob', png(), 'image/png', session.accessJwt);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(Object.keys(first.body.blob as object).sort(), ['$type', 'mimeType', 'ref', 'size']);
    assert.equal(at(first.body, 'blob.$type'), 'blob');
    assert.match(str(first.body, 'blob.ref.$link'), /^bafkrei[a-z2-7]{52}$/);
    assert.equal(at(first.body, 'blob.size'), png().length);
    const again = await pds.bytes('com.atproto.repo.uploadBlob', png(), 'image/png', session.accessJwt);
    assert.equal(str(again.body, 'blob.ref.$link'), str(first.body, 'blob.ref.$link'));
    const other = await pds.bytes('com.atproto.repo.uploadBlob', jpeg(), 'application/octet-stream', session.accessJwt);
    assert.notEqual(str(other.body, 'blob.ref.$link'), str(first.body, 'blob.ref.$link'));
    assert.equal(at(other.body, 'blob.mimeType'), 'image/jpeg');
    refused(await pds.bytes('com.atproto.repo.uploadBlob', png(), 'image/png'), 401, 'AuthMissing');
    await fetch(`${sb.url}/_sandbox/settings`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bluesky: { maxBlobBytes: 1000 } }) });
    refused(await pds.bytes('com.atproto.repo.uploadBlob', Buffer.alloc(1001, 1), 'image/png', session.accessJwt), 413, 'PayloadTooLarge');
    await fetch(`${sb.url}/_sandbox/settings`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bluesky: { maxBlobBytes: 50_000_000 } }) });
  });

  test('video: service tokens for the right aud and lxm; limits; a job encodes on the sandbox clock and its blob goes in a video embed', async () => {
    const limitsToken = await serviceToken('did:web:video.bsky.app', 'app.bsky.video.getUploadLimits');
    const limits = await video.get('app.bsky.video.getUploadLimits', {}, limitsToken);
    assert.equal(limits.status, 200, JSON.stringify(limits.body));
    assert.deepEqual(limits.body, { canUpload: true, remainingDailyVideos: 25, remainingDailyBytes: 10_000_000_000 });
    refused(await pds.get('com.atproto.server.getServiceAuth', { aud: 'did:web:bsky.social', exp: String(nowSeconds() + 7200) }, session.accessJwt), 400, 'BadExpiration');

    const upload = (token: string, bytes = mp4(), did = session.did) => video.bytes('app.bsky.video.uploadVideo', bytes, 'video/mp4', token, { did, name: 'clip.mp4' });
    refused(await upload(limitsToken), 401, 'BadJwtAudience');
    refused(await upload(await serviceToken('did:web:bsky.social', 'app.bsky.video.getUploadLimits')), 401, 'BadJwtLexiconMethod');
    const shortLived = await serviceToken('did:web:bsky.social', 'com.atproto.repo.uploadBlob', nowSeconds() + 30);
    sb.state.clock.advance(31_000);
    refused(await upload(shortLived), 401, 'JwtExpired');
    refused(await video.bytes('app.bsky.video.uploadVideo', mp4(), 'video/mp4', 'garbage', { did: session.did, name: 'x.mp4' }), 401, 'BadJwtSignature');

    const token = await serviceToken('did:web:bsky.social', 'com.atproto.repo.uploadBlob');
    const created = await upload(token);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.state, 'JOB_STATE_CREATED');
    assert.equal(created.body.did, session.did);
    const jobId = str(created.body, 'jobId');
    const encoding = await video.get('app.bsky.video.getJobStatus', { jobId });
    assert.equal(at(encoding.body, 'jobStatus.state'), 'JOB_STATE_ENCODING');
    const embed = (blob: unknown) => ({ text: 'a clip', embed: { $type: 'app.bsky.embed.video', video: blob, alt: 'a clip', aspectRatio: { width: 16, height: 9 } } });
    sb.state.clock.advance(3000);
    const done = await video.get('app.bsky.video.getJobStatus', { jobId });
    assert.equal(at(done.body, 'jobStatus.state'), 'JOB_STATE_COMPLETED', JSON.stringify(done.body));
    assert.equal(at(done.body, 'jobStatus.blob.mimeType'), 'video/mp4');
    await create(embed(at(done.body, 'jobStatus.blob')));
    refused(await video.get('app.bsky.video.getJobStatus', { jobId: 'nope' }), 404, 'NotFound');

    // The same video again: an error body naming a job that has the earlier blob.
    const again = await upload(token);
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.deepEqual({ ...again.body, jobId: undefined }, { did: session.did, error: 'already_exists', jobId: undefined, message: 'Video already processed', state: 'JOB_STATE_COMPLETED' });
    const reused = await video.get('app.bsky.video.getJobStatus', { jobId: str(again.body, 'jobId') });
    assert.equal(at(reused.body, 'jobStatus.state'), 'JOB_STATE_COMPLETED');
    assert.equal(at(reused.body, 'jobStatus.error'), 'already_exists');
    assert.deepEqual(at(reused.body, 'jobStatus.blob'), at(done.body, 'jobStatus.blob'));

    const failed = await upload(token, png());
    sb.state.clock.advance(3000);
    const failure = await video.get('app.bsky.video.getJobStatus', { jobId: str(failed.body, 'jobId') });
    assert.equal(at(failure.body, 'jobStatus.state'), 'JOB_STATE_FAILED');
    assert.equal(at(failure.body, 'jobStatus.message'), 'Failed to process video');

    const remaining = await video.get('app.bsky.video.getUploadLimits', {}, await serviceToken('did:web:video.bsky.app', 'app.bsky.video.getUploadLimits'));
    assert.equal(remaining.body.remainingDailyVideos, 23);
    await control(sb, 'bluesky/account', { emailConfirmed: false });
    const unverified = await video.get('app.bsky.video.getUploadLimits', {}, await serviceToken('did:web:video.bsky.app', 'app.bsky.video.getUploadLimits'));
    assert.equal(unverified.body.canUpload, false);
    assert.match(String(unverified.body.message), /verify your email/);
    const unconfirmed = await upload(await serviceToken('did:web:bsky.social', 'com.atproto.repo.uploadBlob'));
    assert.equal(unconfirmed.status, 400);
    assert.deepEqual(unconfirmed.body, { jobStatus: { did: '', error: 'unconfirmed_email', jobId: '', state: '' } });
    await control(sb, 'bluesky/account', { emailConfirmed: true });
    refused(await upload(token, mp4(), 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa'), 400, 'InvalidRequest', /did/);
  });

  test('getPostThread: the post, replies to a depth, parents, the threadgate; unknown (or not yet seen by the AppView) 400 NotFound', async () => {
    const root = await create({ text: 'root post' });
    const reply = await control(sb, 'bluesky/replies', { postId: root.uri, text: 'first reply', from: 'friend.bsky.social' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const nested = await control(sb, 'bluesky/replies', { postId: str(reply.body, 'uri'), text: 'nested', from: { handle: 'reader.bsky.social' } });
    assert.equal(nested.status, 200);
    assert.deepEqual(at(nested.body, 'value.reply.root'), root, 'the thread root stays the root');
    const rkey = root.uri.split('/').at(-1) ?? '';
    await pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: 'app.bsky.feed.threadgate', rkey, record: { $type: 'app.bsky.feed.threadgate', post: root.uri, hiddenReplies: [str(nested.body, 'uri')], createdAt: now(sb) } }, session.accessJwt);

    const res = await pds.get('app.bsky.feed.getPostThread', { uri: root.uri }, session.accessJwt);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(at(res.body, 'thread.$type'), 'app.bsky.feed.defs#threadViewPost');
    assert.equal(at(res.body, 'thread.post.uri'), root.uri);
    assert.equal(at(res.body, 'thread.post.cid'), root.cid);
    assert.deepEqual(at(res.body, 'thread.post.author'), { did: session.did, handle: HANDLE, displayName: 'Sandbox Bluesky', avatar: at(res.body, 'thread.post.author.avatar'), labels: [], createdAt: at(res.body, 'thread.post.author.createdAt') });
    assert.equal(at(res.body, 'thread.post.record.text'), 'root post');
    assert.equal(at(res.body, 'thread.post.replyCount'), 1);
    assert.equal(at(res.body, 'thread.replies.0.post.record.text'), 'first reply');
    assert.equal(at(res.body, 'thread.replies.0.post.author.handle'), 'friend.bsky.social');
    assert.equal(at(res.body, 'thread.replies.0.replies.0.post.record.text'), 'nested');
    assert.deepEqual(at(res.body, 'threadgate.record.hiddenReplies'), [str(nested.body, 'uri')]);
    const shallow = await pds.get('app.bsky.feed.getPostThread', { uri: root.uri, depth: '1' }, session.accessJwt);
    assert.deepEqual(at(shallow.body, 'thread.replies.0.replies'), []);
    const fromLeaf = await pds.get('app.bsky.feed.getPostThread', { uri: str(nested.body, 'uri'), parentHeight: '1' }, session.accessJwt);
    assert.equal(at(fromLeaf.body, 'thread.parent.post.record.text'), 'first reply');
    assert.equal(at(fromLeaf.body, 'thread.parent.parent'), undefined);
    refused(await pds.get('app.bsky.feed.getPostThread', { uri: `at://${session.did}/${POST}/3aaaaaaaaaaaa` }, session.accessJwt), 400, 'NotFound', /Post not found/);
    // With a firehose delay, a fresh post is not in the reads yet (getRecord at the PDS has it at once).
    sb.state.updateSettings({ bluesky: { appViewLagMs: 2000 } });
    const fresh = await create({ text: 'just posted' });
    refused(await pds.get('app.bsky.feed.getPostThread', { uri: fresh.uri }, session.accessJwt), 400, 'NotFound');
    assert.equal((await pds.get('com.atproto.repo.getRecord', { repo: session.did, collection: POST, rkey: fresh.uri.split('/').at(-1) ?? '' })).status, 200);
    sb.state.clock.advance(2000);
    assert.equal((await pds.get('app.bsky.feed.getPostThread', { uri: fresh.uri }, session.accessJwt)).status, 200);
    sb.state.updateSettings({ bluesky: { appViewLagMs: 0 } });
    refused(await pds.get('app.bsky.feed.getPostThread', { uri: root.uri, depth: '1001' }, session.accessJwt), 400, 'InvalidRequest', /depth/);
  });

  test('getPosts: up to 25 uris with their counts (records plus the control API\'s metrics); unknown ones left out', async () => {
    const post = await create({ text: 'counted' });
    await control(sb, 'bluesky/likes', { postId: post.uri, from: 'friend.bsky.social' });
    await control(sb, 'bluesky/likes', { postId: post.uri, from: 'reader.bsky.social' });
    await control(sb, 'bluesky/reposts', { postId: post.uri });
    await control(sb, 'bluesky/quotes', { postId: post.uri, text: 'look at this' });
    await control(sb, 'bluesky/replies', { postId: post.uri, text: 'nice' });
    const metrics = await control(sb, 'bluesky/metrics', { postId: post.uri, likes: 40 });
    assert.equal(metrics.status, 200);
    const res = await pds.get('app.bsky.feed.getPosts', { uris: [post.uri, `at://${session.did}/${POST}/3aaaaaaaaaaaa`] }, session.accessJwt);
    assert.equal(res.status, 200);
    const posts = res.body.posts as Array<Record<string, unknown>>;
    assert.equal(posts.length, 1);
    assert.deepEqual([posts[0]?.likeCount, posts[0]?.repostCount, posts[0]?.quoteCount, posts[0]?.replyCount], [42, 1, 1, 1]);
    const byHandle = await pds.get('app.bsky.feed.getPosts', { uris: post.uri.replace(session.did, HANDLE) }, session.accessJwt);
    assert.equal(at(byHandle.body, 'posts.0.uri'), post.uri);
    refused(await pds.get('app.bsky.feed.getPosts', { uris: Array.from({ length: 26 }, () => post.uri) }, session.accessJwt), 400, 'InvalidRequest', /25/);
    const negative = await control(sb, 'bluesky/metrics', { postId: post.uri, likes: -1 });
    assert.equal(negative.status, 400);
    assert.match(String(at(negative.body, 'error.message')), /likes: a whole number/);
  });

  test('post views carry the caller’s own like and repost (viewer), in getPosts, getPostThread and getAuthorFeed', async () => {
    const friend = await signIn(sb, 'friend.bsky.social', 'frie-app0-pass-0000');
    const theirs = await create({ text: 'like me' }, friend.accessJwt, friend.did);
    const viewerOf = async (token: string) => at((await pds.get('app.bsky.feed.getPosts', { uris: theirs.uri }, token)).body, 'posts.0.viewer');
    assert.deepEqual(await viewerOf(session.accessJwt), {}, 'no like, no repost: the keys are left out');
    const engage = async (collection: string) => {
      const res = await pds.post('com.atproto.repo.createRecord', { repo: session.did, collection, record: { $type: collection, subject: theirs, createdAt: now(sb) } }, session.accessJwt);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return str(res.body, 'uri');
    };
    const like = await engage('app.bsky.feed.like');
    const repost = await engage('app.bsky.feed.repost');
    // Someone else's like counts but is not the caller's.
    await control(sb, 'bluesky/likes', { postId: theirs.uri, from: 'reader.bsky.social' });
    assert.deepEqual(await viewerOf(session.accessJwt), { like, repost });
    assert.deepEqual(await viewerOf(friend.accessJwt), {}, 'each caller sees only their own records');
    const thread = await pds.get('app.bsky.feed.getPostThread', { uri: theirs.uri }, session.accessJwt);
    assert.deepEqual([at(thread.body, 'thread.post.viewer'), at(thread.body, 'thread.post.likeCount')], [{ like, repost }, 2]);
    const feed = await pds.get('app.bsky.feed.getAuthorFeed', { actor: friend.did, limit: '1' }, session.accessJwt);
    assert.deepEqual(at(feed.body, 'feed.0.post.viewer'), { like, repost });
    const unlike = await pds.post('com.atproto.repo.deleteRecord', { repo: session.did, collection: 'app.bsky.feed.like', rkey: like.split('/').at(-1) }, session.accessJwt);
    assert.equal(unlike.status, 200, JSON.stringify(unlike.body));
    assert.deepEqual(await viewerOf(session.accessJwt), { repost });
    // The AppView sees a like after the firehose's delay, like every record.
    sb.state.updateSettings({ bluesky: { appViewLagMs: 2000 } });
    sb.state.clock.advance(2000);
    const again = await engage('app.bsky.feed.like');
    assert.deepEqual(await viewerOf(session.accessJwt), { repost });
    sb.state.clock.advance(2000);
    assert.deepEqual(await viewerOf(session.accessJwt), { like: again, repost });
    sb.state.updateSettings({ bluesky: { appViewLagMs: 0 } });
  });

  test('getAuthorFeed: newest first, filters, cursor; getProfile: counts', async () => {
    const reader = await signIn(sb, 'reader.bsky.social', 'read-app0-pass-0000');
    const a = await create({ text: 'one' }, reader.accessJwt, reader.did);
    await create({ text: 'two' }, reader.accessJwt, reader.did);
    await create({ text: 'reply', reply: { root: a, parent: a } }, reader.accessJwt, reader.did);
    const feed = await pds.get('app.bsky.feed.getAuthorFeed', { actor: 'reader.bsky.social', limit: '2' }, session.accessJwt);
    assert.equal(feed.status, 200);
    assert.deepEqual((feed.body.feed as unknown[]).map((item) => at(item, 'post.record.text')), ['reply', 'two']);
    assert.equal(at(feed.body, 'feed.0.reply.parent.uri'), a.uri);
    const next = await pds.get('app.bsky.feed.getAuthorFeed', { actor: reader.did, limit: '2', cursor: str(feed.body, 'cursor') }, session.accessJwt);
    assert.equal(at(next.body, 'feed.0.post.record.text'), 'one');
    const noReplies = await pds.get('app.bsky.feed.getAuthorFeed', { actor: reader.did, filter: 'posts_no_replies' }, session.accessJwt);
    assert.ok((noReplies.body.feed as unknown[]).every((item) => at(item, 'post.record.reply') === undefined));
    refused(await pds.get('app.bsky.feed.getAuthorFeed', { actor: reader.did, filter: 'everything' }, session.accessJwt), 400, 'InvalidRequest', /filter/);
    refused(await pds.get('app.bsky.feed.getAuthorFeed', { actor: 'nobody.bsky.social' }, session.accessJwt), 400, 'InvalidRequest', /Profile not found/);

    await control(sb, 'bluesky/follows', { actor: HANDLE, from: 'reader.bsky.social' });
    const profile = await pds.get('app.bsky.actor.getProfile', { actor: HANDLE }, session.accessJwt);
    assert.equal(profile.status, 200);
    assert.equal(profile.body.did, session.did);
    assert.equal(profile.body.displayName, 'Sandbox Bluesky');
    assert.equal(profile.body.followersCount, 129);
    assert.equal(profile.body.followsCount, 64);
    assert.equal(typeof profile.body.postsCount, 'number');
    assert.ok(Number(profile.body.postsCount) > 0);
    refused(await pds.get('app.bsky.actor.getProfile', { actor: 'nobody.bsky.social' }, session.accessJwt), 400, 'InvalidRequest', /Profile not found/);
  });

  test('notifications: replies, mentions, quotes, likes, reposts and follows by others, newest first; reasons; cursor; updateSeen', async () => {
    sb.state.reset();
    session = await signIn(sb);
    const post = await create({ text: 'notify me' });
    const list = (query: Record<string, string | string[]> = {}) => pds.get('app.bsky.notification.listNotifications', query, session.accessJwt);
    assert.deepEqual((await list()).body.notifications, []);
    // Each a millisecond apart: in one millisecond the order is the URIs', not the making's.
    sb.state.clock.advance(1);
    const reply = await control(sb, 'bluesky/replies', { postId: post.uri, text: 'a reply', from: 'friend.bsky.social' });
    sb.state.clock.advance(1);
    const mention = await control(sb, 'bluesky/mentions', { text: 'hello there', from: 'reader.bsky.social' });
    assert.equal(mention.status, 200, JSON.stringify(mention.body));
    assert.equal(at(mention.body, 'value.text'), `hello there @${HANDLE}`);
    assert.deepEqual(at(mention.body, 'value.facets.0.index'), { byteStart: 12, byteEnd: 12 + HANDLE.length + 1 });
    sb.state.clock.advance(1);
    await control(sb, 'bluesky/quotes', { postId: post.uri, text: 'quoting', from: 'reader.bsky.social' });
    sb.state.clock.advance(1);
    await control(sb, 'bluesky/likes', { postId: post.uri, from: 'friend.bsky.social' });
    sb.state.clock.advance(1);
    await control(sb, 'bluesky/reposts', { postId: post.uri, from: 'reader.bsky.social' });
    sb.state.clock.advance(1);
    await control(sb, 'bluesky/follows', { actor: HANDLE, from: 'friend.bsky.social' });
    await create({ text: 'my own reply does not notify me', reply: { root: post, parent: post } });

    const all = await list();
    assert.equal(all.status, 200);
    const notifications = all.body.notifications as Array<Record<string, unknown>>;
    assert.deepEqual(notifications.map((n) => n.reason), ['follow', 'repost', 'like', 'quote', 'mention', 'reply']);
    const replied = notifications.at(-1) ?? {};
    assert.equal(replied.uri, reply.body.uri);
    assert.equal(replied.cid, reply.body.cid);
    assert.equal(replied.reasonSubject, post.uri);
    assert.equal(at(replied, 'author.handle'), 'friend.bsky.social');
    assert.equal(at(replied, 'record.text'), 'a reply');
    assert.equal(replied.isRead, false);
    assert.equal(at(notifications[2], 'reasonSubject'), post.uri);

    const only = await list({ reasons: ['reply', 'mention'], limit: '1' });
    assert.deepEqual((only.body.notifications as Array<Record<string, unknown>>).map((n) => n.reason), ['mention']);
    const rest = await list({ reasons: ['reply', 'mention'], limit: '1', cursor: str(only.body, 'cursor') });
    assert.deepEqual((rest.body.notifications as Array<Record<string, unknown>>).map((n) => n.reason), ['reply']);
    refused(await list({ reasons: 'gossip' }), 400, 'InvalidRequest', /reasons/);

    const seen = await pds.post('app.bsky.notification.updateSeen', { seenAt: now(sb) }, session.accessJwt);
    assert.equal(seen.status, 200);
    assert.ok(((await list()).body.notifications as Array<Record<string, unknown>>).every((n) => n.isRead === true));
    // Deleting the reply takes its notification away.
    const friend = await signIn(sb, 'friend.bsky.social', 'frie-app0-pass-0000');
    await pds.post('com.atproto.repo.deleteRecord', { repo: friend.did, collection: POST, rkey: str(reply.body, 'uri').split('/').at(-1) }, friend.accessJwt);
    assert.ok(!((await list()).body.notifications as Array<Record<string, unknown>>).some((n) => n.reason === 'reply'));
  });

  test("bsky.app: a post's page by handle or DID (escaped, view-only), 404 for another handle; the app-passwords page", async () => {
    const post = await create({ text: 'Crusty <b>loaf</b>', labels: { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'nudity' }] } });
    const rkey = post.uri.split('/').at(-1) ?? '';
    for (const actor of [HANDLE, session.did]) {
      const res = await fetch(`${sb.url}/bsky.app/profile/${actor}/post/${rkey}`);
      const html = await res.text();
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.ok(html.includes('Crusty &#60;b&#62;loaf&#60;/b&#62;'), html);
      assert.ok(html.includes(`@${HANDLE}`));
      assert.ok(html.includes('Labels: nudity'));
    }
    assert.equal((await fetch(`${sb.url}/bsky.app/profile/reader.bsky.social/post/${rkey}`)).status, 404);
    const passwords = await fetch(`${sb.url}/bsky.app/settings/app-passwords`);
    assert.equal(passwords.status, 200);
    assert.ok((await passwords.text()).includes('sand-box0-app0-pass'));
  });

  test('control routes refuse what they cannot do, with the field named', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['bluesky/replies', { text: 'x' }, /postId: required/],
      ['bluesky/replies', { postId: 'at://did:plc:x/app.bsky.feed.post/3aaaaaaaaaaaa', text: 'x' }, /postId: no post/],
      ['bluesky/mentions', { text: 'x', from: 'nobody.bsky.social' }, /from: no Bluesky account/],
      ['bluesky/metrics', { postId: 'at://nothing' }, /postId: no post/],
      ['bluesky/app-passwords/revoke', { name: 'nope' }, /name: /],
      ['bluesky/account', { actor: 'nobody.bsky.social' }, /actor: no Bluesky account/],
    ];
    for (const [path, body, message] of cases) {
      const res = await control(sb, path, body);
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.match(String(at(res.body, 'error.message')), message, path);
    }
    const records = await control(sb, `bluesky/records?did=${encodeURIComponent(session.did)}&collection=${POST}`);
    assert.ok((records.body.records as unknown[]).length > 0);
  });
});

describe('bluesky state across a restart', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bluesky-state-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('records, blobs and sessions are kept in the state file', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await sandbox({ stateFile });
    const session = await signIn(first);
    const pds = xrpc(first);
    const blob = await pds.bytes('com.atproto.repo.uploadBlob', png(), 'image/png', session.accessJwt);
    const post = await pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: POST, record: { $type: POST, text: 'kept', createdAt: now(first), embed: { $type: 'app.bsky.embed.images', images: [{ image: blob.body.blob, alt: '' }] } } }, session.accessJwt);
    assert.equal(post.status, 200, JSON.stringify(post.body));
    await first.close();

    const second = await sandbox({ stateFile });
    try {
      const again = xrpc(second);
      const read = await again.get('com.atproto.repo.getRecord', { repo: session.did, collection: POST, rkey: str(post.body, 'uri').split('/').at(-1) ?? '' });
      assert.equal(read.status, 200);
      assert.equal(at(read.body, 'value.text'), 'kept');
      assert.equal((await again.get('com.atproto.server.getSession', {}, session.accessJwt)).status, 200, 'the access token still works');
      const refreshed = await again.post('com.atproto.server.refreshSession', undefined, session.refreshJwt);
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      const reuse = await again.post('com.atproto.repo.createRecord', { repo: session.did, collection: POST, record: { $type: POST, text: 'same blob', createdAt: now(second), embed: { $type: 'app.bsky.embed.images', images: [{ image: blob.body.blob, alt: '' }] } } }, str(refreshed.body, 'accessJwt'));
      assert.equal(reuse.status, 200, 'the blob is still the account\'s');
      assert.notEqual(reuse.body.uri, post.body.uri, 'a new key after the restart');
    } finally {
      await second.close();
    }
  });
});
