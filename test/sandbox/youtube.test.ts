// YouTube against the sandbox (youtube.md): Google's consent with the account chooser (a channel
// or a Brand Account), offline access and refresh (invalid_grant once revoked), channels.list
// mine=true, the resumable upload (session URI, chunks in multiples of 256 KiB, 308 with Range,
// the `bytes */total` status query, 404 for an unknown session), the video rules YouTube applies,
// the unaudited project's private lock, the quota (403 quotaExceeded), thumbnails, playlists,
// comments and the analytics report.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, openConsent, sandbox } from './helpers.ts';
import * as media from '../fixtures/media.ts';

const APP = 'sandbox-google-client';
const SECRET = 'google-secret';
const REDIRECT = 'https://app.example/callback/youtube';
const SCOPES = ['youtube.upload', 'youtube.force-ssl', 'yt-analytics.readonly'].map((s) => `https://www.googleapis.com/auth/${s}`).join(' ');
const KIB256 = 256 * 1024;

describe('YouTube', () => {
  let sb: RunningSandbox;
  let api: string;
  let token: string;
  let refresh: string;
  const auth = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
  const authorize = (extra = '') => `${sb.url}/accounts.google.com/o/oauth2/v2/auth?client_id=${APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=${encodeURIComponent(SCOPES)}&access_type=offline&prompt=consent&include_granted_scopes=true&state=s1${extra}`;
  const exchange = async (code: string) =>
    fetch(`${sb.url}/oauth2.googleapis.com/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: APP, client_secret: SECRET }) });
  const start = (resource: unknown, size: number, headers: Record<string, string> = {}) =>
    fetch(`${api}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: auth({ 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(size), 'x-upload-content-type': 'video/mp4', ...headers }),
      body: JSON.stringify(resource),
    });
  const sessionUrl = (res: Response) => (res.headers.get('location') ?? '').replace('https://', `${sb.url}/`);
  const put = (url: string, body: Buffer, range?: string) => fetch(url, { method: 'PUT', headers: auth({ 'content-type': 'video/mp4', ...(range ? { 'content-range': range } : {}) }), body, redirect: 'manual' });
  const video = (size: number) => Buffer.concat([media.mp4(), Buffer.alloc(size - media.mp4().length, 3)]);
  const resource = { snippet: { title: 'Bread', description: 'Warm', categoryId: '22', tags: ['bread', 'sour dough'] }, status: { privacyStatus: 'public', selfDeclaredMadeForKids: false } };

  before(async () => {
    sb = await sandbox();
    api = `${sb.url}/www.googleapis.com`;
    const page = await openConsent(authorize());
    assert.match(page.html, /Sandbox User \(Sandbox Bakery TV\)/);
    assert.match(page.html, /Sandbox Books TV \(Brand Account of Sandbox User\)/);
    const location = await consent(authorize());
    assert.equal(location.searchParams.get('state'), 's1');
    const res = await exchange(location.searchParams.get('code') ?? '');
    const body = (await res.json()) as { access_token: string; expires_in: number; refresh_token: string; scope: string };
    assert.equal(body.expires_in, 3599);
    assert.match(body.refresh_token, /^1\/\//);
    assert.equal(body.scope, SCOPES);
    [token, refresh] = [body.access_token, body.refresh_token];
  });
  after(() => sb.close());

  test('mine=true lists the channel picked; the Brand Account is its own identity; a code is single use', async () => {
    const mine = (await (await fetch(`${api}/youtube/v3/channels?part=id,snippet,statistics&mine=true`, { headers: auth() })).json()) as { items: Array<{ id: string; snippet: { title: string } }> };
    assert.deepEqual(mine.items.map((c) => c.snippet.title), ['Sandbox Bakery TV']);
    const books = [...sb.state.people.youtubeChannels.values()].find((c) => c.title === 'Sandbox Books TV');
    const location = await consent(authorize(), { subject: books?.identityId ?? '' });
    const code = location.searchParams.get('code') ?? '';
    const other = (await (await exchange(code)).json()) as { access_token: string };
    const theirs = (await (await fetch(`${api}/youtube/v3/channels?part=snippet&mine=true`, { headers: { authorization: `Bearer ${other.access_token}` } })).json()) as { items: Array<{ snippet: { title: string } }> };
    assert.deepEqual(theirs.items.map((c) => c.snippet.title), ['Sandbox Books TV']);
    const again = await exchange(code);
    assert.equal(again.status, 400);
    assert.equal(((await again.json()) as { error: string }).error, 'invalid_grant');
  });

  test('refresh gives a new access token and no refresh token; the refresh token of a revoked grant is invalid_grant', async () => {
    const form = (value: string) => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: value, client_id: APP, client_secret: SECRET });
    const res = await fetch(`${sb.url}/oauth2.googleapis.com/token`, { method: 'POST', body: form(refresh) });
    const body = (await res.json()) as { access_token: string; refresh_token?: string };
    assert.ok(body.access_token && body.access_token !== token);
    assert.equal(body.refresh_token, undefined);
    // Revoking ends the whole grant (every token of the client and identity): another person's here.
    const { identities } = sb.state.addGoogleUser({ name: 'Spare', channels: [{ title: 'Spare TV' }] });
    const location = await consent(authorize(), { subject: identities[0] ?? '' });
    const spare = (await (await exchange(location.searchParams.get('code') ?? '')).json()) as { refresh_token: string };
    assert.equal((await fetch(`${sb.url}/oauth2.googleapis.com/revoke?token=${spare.refresh_token}`, { method: 'POST' })).status, 200);
    const refused = await fetch(`${sb.url}/oauth2.googleapis.com/token`, { method: 'POST', body: form(spare.refresh_token) });
    assert.equal(refused.status, 400);
    assert.deepEqual(await refused.json(), { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
  });

  test('resumable upload in chunks: 308 with Range, the status query, a resent chunk, 201 with the video; locked private while unaudited', async () => {
    const bytes = video(2 * KIB256 + 1000);
    const started = await start(resource, bytes.length);
    assert.equal(started.status, 200);
    const url = sessionUrl(started);
    assert.match(url, /upload_id=/);
    assert.equal(sb.state.youtube.videos.size, 0, 'nothing exists before the last byte');
    const total = bytes.length;
    const status = await put(url, Buffer.alloc(0), `bytes */${total}`);
    assert.equal(status.status, 308);
    assert.equal(status.headers.get('range'), null);
    const odd = await put(url, bytes.subarray(0, 1000), `bytes 0-999/${total}`);
    assert.equal(odd.status, 400, 'a chunk that is not a multiple of 256 KiB is refused');
    const first = await put(url, bytes.subarray(0, KIB256), `bytes 0-${KIB256 - 1}/${total}`);
    assert.equal(first.status, 308);
    assert.equal(first.headers.get('range'), `bytes=0-${KIB256 - 1}`);
    const gap = await put(url, bytes.subarray(2 * KIB256), `bytes ${2 * KIB256}-${total - 1}/${total}`);
    assert.equal(gap.status, 400, 'a chunk past what arrived is refused');
    const resent = await put(url, bytes.subarray(0, KIB256), `bytes 0-${KIB256 - 1}/${total}`);
    assert.equal(resent.status, 308);
    const second = await put(url, bytes.subarray(KIB256, 2 * KIB256), `bytes ${KIB256}-${2 * KIB256 - 1}/${total}`);
    assert.equal(second.headers.get('range'), `bytes=0-${2 * KIB256 - 1}`);
    const last = await put(url, bytes.subarray(2 * KIB256), `bytes ${2 * KIB256}-${total - 1}/${total}`);
    assert.equal(last.status, 201);
    const made = (await last.json()) as { id: string; snippet: { title: string; tags: string[] }; status: { uploadStatus: string; privacyStatus: string; selfDeclaredMadeForKids: boolean } };
    assert.equal(made.snippet.title, 'Bread');
    assert.deepEqual([made.status.uploadStatus, made.status.privacyStatus, made.status.selfDeclaredMadeForKids], ['uploaded', 'private', false]);
    const query = await put(url, Buffer.alloc(0), `bytes */${total}`);
    assert.equal(query.status, 200);
    assert.equal(((await query.json()) as { id: string }).id, made.id, 'the status query of a finished upload names the video');
    assert.equal(sb.state.youtube.videos.size, 1);
    const unknown = await put(url.replace(/upload_id=[^&]+/, 'upload_id=nope'), Buffer.alloc(0), `bytes */${total}`);
    assert.equal(unknown.status, 404);
  });

  test('an audited project keeps the privacy asked; one PUT carries the whole file; publishAt needs private', async () => {
    sb.state.updateSettings({ youtube: { audited: true } });
    const bytes = video(5000);
    const url = sessionUrl(await start(resource, bytes.length));
    const done = await put(url, bytes);
    assert.equal(done.status, 201);
    assert.equal(((await done.json()) as { status: { privacyStatus: string } }).status.privacyStatus, 'public');
    const publishAt = new Date(Date.now() + 86_400_000).toISOString();
    const refused = await start({ ...resource, status: { privacyStatus: 'public', publishAt } }, 5000);
    assert.equal(((await refused.json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]?.reason, 'invalidPublishAt');
    assert.equal((await start({ ...resource, status: { privacyStatus: 'private', publishAt } }, 5000)).status, 200);
    sb.state.updateSettings({ youtube: { audited: false } });
  });

  test('the rules of the video resource: title, description, tags, category; a missing audience declaration is accepted and left undeclared', async () => {
    const reason = async (res: Response) => ((await res.json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]?.reason;
    const snippet = resource.snippet;
    assert.equal(await reason(await start({ ...resource, snippet: { ...snippet, title: '' } }, 100)), 'invalidTitle');
    assert.equal(await reason(await start({ ...resource, snippet: { ...snippet, title: 'x'.repeat(101) } }, 100)), 'invalidTitle');
    assert.equal(await reason(await start({ ...resource, snippet: { ...snippet, title: 'a <b>' } }, 100)), 'invalidTitle');
    assert.equal(await reason(await start({ ...resource, snippet: { ...snippet, description: 'é'.repeat(2501) } }, 100)), 'invalidDescription');
    assert.equal(await reason(await start({ ...resource, snippet: { ...snippet, tags: ['a b'.repeat(100), 'x'.repeat(300)] } }, 100)), 'invalidTags');
    assert.equal(await reason(await start({ ...resource, snippet: { ...snippet, categoryId: '999' } }, 100)), 'invalidCategoryId');
    assert.equal(await reason(await start({ ...resource, status: { madeForKids: false } }, 100)), 'invalidVideoMetadata');
    const bytes = video(3000);
    const done = await put(sessionUrl(await start({ snippet, status: { privacyStatus: 'unlisted' } }, bytes.length)), bytes);
    const body = (await done.json()) as { status: Record<string, unknown> };
    assert.equal(body.status.selfDeclaredMadeForKids, undefined);
  });

  test('thumbnails, playlists, comments, statistics and the analytics report', async () => {
    const bytes = video(3000);
    const { id } = (await (await put(sessionUrl(await start(resource, bytes.length)), bytes)).json()) as { id: string };
    const thumb = await fetch(`${api}/upload/youtube/v3/thumbnails/set?videoId=${id}`, { method: 'POST', headers: auth({ 'content-type': 'image/jpeg' }), body: media.jpeg() });
    assert.equal(thumb.status, 200);
    const playlist = (await (await fetch(`${api}/youtube/v3/playlists?part=snippet`, { method: 'POST', headers: auth({ 'content-type': 'application/json' }), body: JSON.stringify({ snippet: { title: 'Breads' } }) })).json()) as { id: string };
    const item = await fetch(`${api}/youtube/v3/playlistItems?part=snippet`, { method: 'POST', headers: auth({ 'content-type': 'application/json' }), body: JSON.stringify({ snippet: { playlistId: playlist.id, resourceId: { kind: 'youtube#video', videoId: id } } }) });
    assert.equal(item.status, 200);
    const items = (await (await fetch(`${api}/youtube/v3/playlistItems?part=id&playlistId=${playlist.id}&videoId=${id}`, { headers: auth() })).json()) as { items: unknown[] };
    assert.equal(items.items.length, 1);
    const thread = await fetch(`${api}/youtube/v3/commentThreads?part=snippet`, { method: 'POST', headers: auth({ 'content-type': 'application/json' }), body: JSON.stringify({ snippet: { videoId: id, topLevelComment: { snippet: { textOriginal: 'Hello' } } } }) });
    assert.equal(thread.status, 200);
    const threads = (await (await fetch(`${api}/youtube/v3/commentThreads?part=snippet,replies&videoId=${id}`, { headers: auth() })).json()) as { items: Array<{ snippet: { topLevelComment: { snippet: { textOriginal: string } } } }> };
    assert.deepEqual(threads.items.map((t) => t.snippet.topLevelComment.snippet.textOriginal), ['Hello']);
    await fetch(`${sb.url}/_sandbox/youtube/statistics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ postId: id, viewCount: 40, likeCount: 5, shares: 2 }) });
    const stats = (await (await fetch(`${api}/youtube/v3/videos?part=statistics&id=${id}`, { headers: auth() })).json()) as { items: Array<{ statistics: Record<string, string> }> };
    assert.deepEqual(stats.items[0]?.statistics, { viewCount: '40', likeCount: '5', favoriteCount: '0', commentCount: '1' });
    const report = (await (await fetch(`${sb.url}/youtubeanalytics.googleapis.com/v2/reports?ids=channel==MINE&startDate=2020-01-01&endDate=2030-01-01&metrics=views,shares&filters=video==${id}`, { headers: auth() })).json()) as { rows: number[][] };
    assert.deepEqual(report.rows, [[40, 2]]);
    const del = await fetch(`${api}/youtube/v3/videos?id=${id}`, { method: 'DELETE', headers: auth() });
    assert.equal(del.status, 204);
  });

  test('quota: 403 quotaExceeded once the day is spent (uploads have their own bucket); an unknown token is 401 authError', async () => {
    sb.state.updateSettings({ youtube: { uploads: 0 } });
    const refused = await start(resource, 100);
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]?.reason, 'quotaExceeded');
    sb.state.updateSettings({ youtube: { uploads: 100, quota: 0 } });
    const list = await fetch(`${api}/youtube/v3/channels?part=id&mine=true`, { headers: auth() });
    assert.equal(list.status, 403);
    sb.state.updateSettings({ youtube: { quota: 10_000 } });
    const anon = await fetch(`${api}/youtube/v3/channels?part=id&mine=true`, { headers: { authorization: 'Bearer nope' } });
    assert.equal(anon.status, 401);
    assert.equal(((await anon.json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]?.reason, 'authError');
  });
});
