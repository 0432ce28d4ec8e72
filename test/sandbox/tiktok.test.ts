// TikTok against the sandbox (platforms.md §5): Login Kit v2 with URL-encoded codes and rotating
// refresh tokens, user info, creator info, the unaudited SELF_ONLY rule, PULL_FROM_URL with a
// real download, FILE_UPLOAD in chunks, photo posts, status on the sandbox clock, rate limits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, fileServer, sandbox, samples, type FileServer } from './helpers.ts';

const KEY = 'awsandboxkey';
const SECRET = 'tt-secret';
const REDIRECT = 'https://app.example/callback/tiktok';
const SCOPES = 'user.info.basic,user.info.profile,video.publish,video.upload';
const MB = 1024 * 1024;

interface Envelope<T> {
  data: T;
  error: { code: string; message: string; log_id: string };
}

describe('TikTok', () => {
  let sb: RunningSandbox;
  let files: FileServer;
  let api: string;
  let token: string;
  let refresh: string;

  const authorize = (scope = SCOPES) =>
    `${sb.url}/www.tiktok.com/v2/auth/authorize/?client_key=${KEY}&response_type=code&scope=${scope}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=tt`;
  const tokenCall = (params: Record<string, string>) =>
    fetch(`${api}/v2/oauth/token/`, { method: 'POST', body: new URLSearchParams({ client_key: KEY, client_secret: SECRET, ...params }) });
  const call = async <T = Record<string, unknown>>(path: string, body?: unknown, bearer = token) => {
    const res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json; charset=UTF-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope<T> };
  };
  const status = (publishId: string) => call<{ status: string; fail_reason: string; publicaly_available_post_id: number[]; downloaded_bytes: number }>('/v2/post/publish/status/fetch/', { publish_id: publishId });
  const directVideo = (url: string, privacy = 'SELF_ONLY') =>
    call<{ publish_id: string }>('/v2/post/publish/video/init/', { post_info: { title: 'hello #sandbox', privacy_level: privacy }, source_info: { source: 'PULL_FROM_URL', video_url: url } });

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'tiktok', clientId: KEY, clientSecret: SECRET }], settings: { limits: { tiktokInitPerMinute: 100 } } });
    files = await fileServer({ '/v.mp4': { body: samples.mp4 }, '/p.jpg': { body: samples.jpeg }, '/p.webp': { body: samples.webp }, '/p.png': { body: samples.png } });
    api = `${sb.url}/open.tiktokapis.com`;
    const location = await consent(authorize());
    assert.equal(location.searchParams.get('scopes'), SCOPES);
    const code = location.searchParams.get('code') ?? '';
    assert.match(code, /[*!]/, 'TikTok codes carry * and !');
    assert.match(location.search, /%21/, 'and arrive URL-encoded');
    const res = await tokenCall({ code, grant_type: 'authorization_code', redirect_uri: REDIRECT });
    const body = (await res.json()) as { access_token: string; refresh_token: string; open_id: string; scope: string; token_type: string; expires_in: number };
    assert.match(body.access_token, /^act\./);
    assert.match(body.refresh_token, /^rft\./);
    assert.equal(body.scope, SCOPES);
    assert.equal(body.token_type, 'Bearer');
    token = body.access_token;
    refresh = body.refresh_token;
    assert.equal((await tokenCall({ code, grant_type: 'authorization_code', redirect_uri: REDIRECT })).status, 400, 'codes are single use');
  });
  after(async () => {
    await sb.close();
    await files.close();
  });

  test('user info needs fields, and each field its scope', async () => {
    const res = await fetch(`${api}/v2/user/info/?fields=open_id,display_name,username`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as Envelope<{ user: Record<string, string> }>;
    assert.equal(body.error.code, 'ok');
    assert.equal(body.data.user.username, 'sandbox.tiktok');
    const noFields = await fetch(`${api}/v2/user/info/`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(noFields.status, 400);
    const stats = await fetch(`${api}/v2/user/info/?fields=follower_count`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(stats.status, 401);
    assert.equal(((await stats.json()) as Envelope<unknown>).error.code, 'scope_not_authorized');
  });

  test('creator info lists the privacy options and interaction settings', async () => {
    const { status: code, body } = await call<{ privacy_level_options: string[]; stitch_disabled: boolean; max_video_post_duration_sec: number }>('/v2/post/publish/creator_info/query/');
    assert.equal(code, 200);
    assert.deepEqual(body.data.privacy_level_options, ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
    assert.equal(body.data.stitch_disabled, true);
    assert.equal(typeof body.data.max_video_post_duration_sec, 'number');
  });

  test('an unaudited client may post SELF_ONLY only; an option the creator lacks is a mismatch', async () => {
    const refused = await directVideo(`${files.url}/v.mp4`, 'MUTUAL_FOLLOW_FRIENDS');
    assert.deepEqual([refused.status, refused.body.error.code], [403, 'unaudited_client_can_only_post_to_private_accounts']);
    const mismatch = await directVideo(`${files.url}/v.mp4`, 'PUBLIC_TO_EVERYONE');
    assert.equal(mismatch.body.error.code, 'privacy_level_option_mismatch');
  });

  test('PULL_FROM_URL downloads the video, then PROCESSING_DOWNLOAD turns PUBLISH_COMPLETE with the clock', async () => {
    const init = await directVideo(`${files.url}/v.mp4`);
    assert.equal(init.body.error.code, 'ok');
    assert.match(init.body.data.publish_id, /^v_pub_url~v2\.\d+$/);
    assert.equal((await status(init.body.data.publish_id)).body.data.status, 'PROCESSING_DOWNLOAD');
    await sb.state.idle();
    assert.equal(files.hits.get('/v.mp4'), 1);
    sb.state.clock.advance(3_000);
    const done = await status(init.body.data.publish_id);
    assert.equal(done.body.data.status, 'PUBLISH_COMPLETE');
    assert.equal(done.body.data.downloaded_bytes, samples.mp4.length);
    assert.deepEqual(done.body.data.publicaly_available_post_id, [], 'SELF_ONLY posts have no public id');
  });

  test('an audited client posts publicly; the public post id is a bare int64', async () => {
    sb.state.app('tiktok', KEY).audited = true;
    sb.state.people.tiktokCreators.forEach((c) => (c.privacyLevelOptions = ['PUBLIC_TO_EVERYONE', 'SELF_ONLY']));
    const init = await directVideo(`${files.url}/v.mp4`, 'PUBLIC_TO_EVERYONE');
    await sb.state.idle();
    sb.state.clock.advance(3_000);
    const res = await fetch(`${api}/v2/post/publish/status/fetch/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ publish_id: init.body.data.publish_id }),
    });
    const text = await res.text();
    assert.match(text, /"publicaly_available_post_id":\[\d{19}\]/);
    sb.state.app('tiktok', KEY).audited = false;
    sb.state.people.tiktokCreators.forEach((c) => (c.privacyLevelOptions = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']));
  });

  test('a public post processed without anyone polling its status is listed by video.list with its id', async () => {
    // As when the publisher is cut off right after init: TikTok still makes the post.
    sb.state.app('tiktok', KEY).audited = true;
    sb.state.people.tiktokCreators.forEach((c) => (c.privacyLevelOptions = ['PUBLIC_TO_EVERYONE', 'SELF_ONLY']));
    try {
      const location = await consent(authorize('user.info.basic,video.publish,video.list'));
      const granted = await tokenCall({ code: location.searchParams.get('code') ?? '', grant_type: 'authorization_code', redirect_uri: REDIRECT });
      const lister = ((await granted.json()) as { access_token: string }).access_token;
      const init = await directVideo(`${files.url}/v.mp4`, 'PUBLIC_TO_EVERYONE');
      await sb.state.idle();
      sb.state.clock.advance(3_000);
      const listed = await fetch(`${api}/v2/video/list/?fields=id,title`, { method: 'POST', headers: { authorization: `Bearer ${lister}`, 'content-type': 'application/json' }, body: '{}' });
      const text = await listed.text();
      const ids = [...text.matchAll(/"id":"?(\d{19})"?/g)].map((m) => m[1]);
      assert.ok(ids.length > 0, text);
      // A bare int64: read from the text, as JSON.parse would round it.
      const fetched = await fetch(`${api}/v2/post/publish/status/fetch/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ publish_id: init.body.data.publish_id }) });
      const postId = /"publicaly_available_post_id":\[(\d{19})\]/.exec(await fetched.text())?.[1];
      assert.ok(postId && ids.includes(postId), 'the status later gives the same id the list showed');
    } finally {
      sb.state.app('tiktok', KEY).audited = false;
      sb.state.people.tiktokCreators.forEach((c) => (c.privacyLevelOptions = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']));
    }
  });

  test('a URL that cannot be fetched, or is not a video, fails with fail_reason', async () => {
    const missing = await directVideo(`${files.url}/missing.mp4`);
    await sb.state.idle();
    assert.deepEqual(
      await status(missing.body.data.publish_id).then((r) => [r.body.data.status, r.body.data.fail_reason]),
      ['FAILED', 'video_pull_failed'],
    );
    const notVideo = await directVideo(`${files.url}/p.jpg`);
    await sb.state.idle();
    assert.equal((await status(notVideo.body.data.publish_id)).body.data.fail_reason, 'file_format_check_failed');
  });

  test('unverified URL prefixes are refused when prefixes are configured', async () => {
    sb.state.updateSettings({ tiktok: { verifiedUrlPrefixes: ['https://cdn.example.com/'] } });
    const refused = await directVideo(`${files.url}/v.mp4`);
    assert.deepEqual([refused.status, refused.body.error.code], [403, 'url_ownership_unverified']);
    sb.state.updateSettings({ tiktok: { verifiedUrlPrefixes: [`${files.url}/`] } });
    assert.equal((await directVideo(`${files.url}/v.mp4`)).status, 200);
    sb.state.updateSettings({ tiktok: { verifiedUrlPrefixes: null } });
  });

  test('FILE_UPLOAD: chunk rules at init, ordered PUTs with Content-Range, 206 then 201', async () => {
    const size = 11 * MB + 123;
    const bad = await call('/v2/post/publish/video/init/', {
      post_info: { privacy_level: 'SELF_ONLY' },
      source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: 5 * MB, total_chunk_count: 3 },
    });
    assert.equal(bad.body.error.code, 'invalid_params');
    const init = await call<{ publish_id: string; upload_url: string }>('/v2/post/publish/video/init/', {
      post_info: { privacy_level: 'SELF_ONLY', title: 'uploaded' },
      source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: 5 * MB, total_chunk_count: 2 },
    });
    assert.equal(init.body.error.code, 'ok');
    assert.match(init.body.data.publish_id, /^v_pub_file~v2\./);
    const uploadUrl = init.body.data.upload_url;
    assert.ok(uploadUrl.startsWith(`${sb.url}/open-upload.tiktokapis.com/video/?upload_id=`));
    const video = Buffer.concat([samples.mp4, Buffer.alloc(size - samples.mp4.length, 7)]);
    const put = (first: number, last: number) =>
      fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${first}-${last}/${size}` }, body: video.subarray(first, last + 1) });
    assert.equal((await put(5 * MB, size - 1)).status, 416, 'chunks go in order');
    assert.equal((await status(init.body.data.publish_id)).body.data.status, 'PROCESSING_UPLOAD');
    assert.equal((await put(0, 5 * MB - 1)).status, 206);
    assert.equal((await put(5 * MB, size - 1)).status, 201);
    sb.state.clock.advance(3_000);
    const done = await status(init.body.data.publish_id);
    assert.equal(done.body.data.status, 'PUBLISH_COMPLETE');
  });

  test('a small file goes up whole; bytes that are not a video fail the format check', async () => {
    const png = samples.png;
    const init = await call<{ publish_id: string; upload_url: string }>('/v2/post/publish/inbox/video/init/', {
      source_info: { source: 'FILE_UPLOAD', video_size: png.length, chunk_size: png.length, total_chunk_count: 1 },
    });
    assert.match(init.body.data.publish_id, /^v_inbox_file~/);
    const res = await fetch(init.body.data.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-${png.length - 1}/${png.length}` }, body: png });
    assert.equal(res.status, 201);
    assert.equal((await status(init.body.data.publish_id)).body.data.fail_reason, 'file_format_check_failed');

    const mp4 = await call<{ publish_id: string; upload_url: string }>('/v2/post/publish/inbox/video/init/', {
      source_info: { source: 'FILE_UPLOAD', video_size: samples.mp4.length, chunk_size: samples.mp4.length, total_chunk_count: 1 },
    });
    await fetch(mp4.body.data.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-${samples.mp4.length - 1}/${samples.mp4.length}` }, body: samples.mp4 });
    sb.state.clock.advance(3_000);
    assert.equal((await status(mp4.body.data.publish_id)).body.data.status, 'SEND_TO_USER_INBOX');
  });

  test('photo posts: JPEG and WebP only, title at most 90 characters', async () => {
    const photo = (images: string[], title = 'photos') =>
      call<{ publish_id: string }>('/v2/post/publish/content/init/', {
        post_info: { title, privacy_level: 'SELF_ONLY' },
        source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: images },
        post_mode: 'DIRECT_POST',
        media_type: 'PHOTO',
      });
    assert.equal((await photo([`${files.url}/p.jpg`], 'x'.repeat(91))).body.error.code, 'invalid_params');
    const good = await photo([`${files.url}/p.jpg`, `${files.url}/p.webp`]);
    assert.match(good.body.data.publish_id, /^p_pub_url~v2\./);
    const png = await photo([`${files.url}/p.png`]);
    await sb.state.idle();
    sb.state.clock.advance(3_000);
    assert.equal((await status(good.body.data.publish_id)).body.data.status, 'PUBLISH_COMPLETE');
    assert.equal((await status(png.body.data.publish_id)).body.data.fail_reason, 'file_format_check_failed');
  });

  test('init is limited to N calls a minute per token', async () => {
    sb.state.updateSettings({ limits: { tiktokInitPerMinute: 6 } });
    sb.state.clock.advance(61_000);
    const results: number[] = [];
    for (let i = 0; i < 7; i++) results.push((await directVideo(`${files.url}/v.mp4`)).status);
    assert.deepEqual(results, [200, 200, 200, 200, 200, 200, 429]);
    sb.state.clock.advance(61_000);
    assert.equal((await directVideo(`${files.url}/v.mp4`)).status, 200);
    sb.state.updateSettings({ limits: { tiktokInitPerMinute: 100 } });
    await sb.state.idle();
  });

  test('refresh rotates the refresh token; expired and revoked tokens are access_token_invalid', async () => {
    const res = await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh });
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    assert.notEqual(body.refresh_token, refresh);
    const reused = await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh });
    assert.deepEqual([reused.status, ((await reused.json()) as { error: string }).error], [400, 'invalid_grant']);

    sb.state.expireToken(body.access_token);
    const expired = await call('/v2/post/publish/creator_info/query/', undefined, body.access_token);
    assert.deepEqual([expired.status, expired.body.error.code], [401, 'access_token_invalid']);

    await fetch(`${api}/v2/oauth/revoke/`, { method: 'POST', body: new URLSearchParams({ client_key: KEY, client_secret: SECRET, token }) });
    const revoked = await call('/v2/post/publish/creator_info/query/');
    assert.equal(revoked.body.error.code, 'access_token_invalid');
  });

  test('a token without video.publish is scope_not_authorized', async () => {
    const location = await consent(authorize('user.info.basic'));
    const res = await tokenCall({ code: location.searchParams.get('code') ?? '', grant_type: 'authorization_code', redirect_uri: REDIRECT });
    const basic = ((await res.json()) as { access_token: string }).access_token;
    const denied = await call('/v2/post/publish/creator_info/query/', undefined, basic);
    assert.deepEqual([denied.status, denied.body.error.code], [401, 'scope_not_authorized']);
  });
});
