// X against the sandbox (platforms/x.md): OAuth 2.0 with PKCE S256 and Basic client auth,
// 30-second codes, rotating refresh tokens; POST /2/tweets and its rules (weighted length, media,
// polls, replies, quotes, reply settings, duplicates, edits); the chunked media upload with
// processing status and alt text; delete; the user timeline; reads off; the 15-minute window.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, openConsent, samples, sandbox } from './helpers.ts';

const CLIENT = 'x-client';
const SECRET = 'x-secret';
const REDIRECT = 'https://app.example/callback/x';
const BASIC = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;
const VERIFIER = 'v'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const SCOPES = 'tweet.read tweet.write users.read media.write offline.access';

type Body = Record<string, unknown> & { data?: Record<string, unknown>; errors?: Array<{ parameters: Record<string, unknown>; message: string }> };

describe('x', () => {
  let sb: RunningSandbox;
  let api: string;
  let token: string;
  let refresh: string;
  let userId: string;

  const authorize = (extra = `&code_challenge=${CHALLENGE}&code_challenge_method=S256`) =>
    `${sb.url}/x.com/i/oauth2/authorize?client_id=${CLIENT}&response_type=code&state=s1&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${encodeURIComponent(SCOPES)}${extra}`;
  const tokenCall = (params: Record<string, string>, auth = BASIC) => fetch(`${api}/2/oauth2/token`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams(params) });
  const call = async (method: string, path: string, json?: unknown, bearer = token): Promise<{ status: number; body: Body; headers: Headers }> => {
    const res = await fetch(`${api}${path}`, { method, headers: { authorization: `Bearer ${bearer}`, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });
    return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
  };
  const post = (json: unknown) => call('POST', '/2/tweets', json);
  const param = (body: Body) => Object.keys(body.errors?.[0]?.parameters ?? {})[0];
  const upload = async (bytes: Buffer, mediaType: string, category: string): Promise<string> => {
    const init = await call('POST', '/2/media/upload/initialize', { media_type: mediaType, total_bytes: bytes.length, media_category: category });
    assert.equal(init.status, 200, JSON.stringify(init.body));
    const id = String(init.body.data?.id);
    const form = new FormData();
    form.set('segment_index', '0');
    form.set('media', new Blob([bytes]), 'chunk');
    const appended = await fetch(`${api}/2/media/upload/${id}/append`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    assert.equal(appended.status, 200, await appended.clone().text());
    const fin = await call('POST', `/2/media/upload/${id}/finalize`);
    assert.equal(fin.status, 200, JSON.stringify(fin.body));
    return id;
  };

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'x', clientId: CLIENT, clientSecret: SECRET }] });
    api = `${sb.url}/api.x.com`;
    assert.match((await openConsent(authorize())).html, /@sandbox_x/);
    const location = await consent(authorize());
    const res = await tokenCall({ grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: REDIRECT, code_verifier: VERIFIER });
    const body = (await res.json()) as Record<string, string | number>;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.expires_in, 7200);
    token = String(body.access_token);
    refresh = String(body.refresh_token);
    userId = String((await call('GET', '/2/users/me')).body.data?.id);
    assert.match(userId, /^\d{19}$/);
  });
  after(() => sb.close());

  test('authorize needs a code challenge; the verifier, Basic auth and the 30-second code are checked', async () => {
    const none = await fetch(authorize(''), { redirect: 'manual' });
    assert.equal(new URL(none.headers.get('location') ?? '').searchParams.get('error'), 'invalid_request');
    const code = async () => (await consent(authorize())).searchParams.get('code') ?? '';
    const wrong = await tokenCall({ grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT, code_verifier: 'w'.repeat(43) });
    assert.equal(wrong.status, 400);
    const noBasic = await fetch(`${api}/2/oauth2/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: CLIENT }) });
    assert.equal(noBasic.status, 401);
    const late = await code();
    sb.state.clock.advance(31_000);
    assert.equal((await tokenCall({ grant_type: 'authorization_code', code: late, redirect_uri: REDIRECT, code_verifier: VERIFIER })).status, 400);
  });

  test('refresh tokens rotate: the used one is refused afterwards', async () => {
    const first = (await (await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh })).json()) as Record<string, string>;
    assert.ok(first.refresh_token && first.refresh_token !== refresh);
    const again = await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh });
    assert.equal(again.status, 400);
    assert.equal(((await again.json()) as Record<string, string>).error, 'invalid_request');
    token = first.access_token ?? '';
    refresh = first.refresh_token;
  });

  test('text: weighted length 280 (URLs 23, CJK and emoji 2); 201 with the id; links become t.co', async () => {
    assert.equal((await post({ text: 'a'.repeat(281) })).status, 400);
    assert.equal(param((await post({ text: '漢'.repeat(141) })).body), 'text');
    const ok = await post({ text: `${'漢'.repeat(128)} https://example.com/${'x'.repeat(100)}` });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.match(String(ok.body.data?.text), /https:\/\/t\.co\//);
    assert.deepEqual(ok.body.data?.edit_history_tweet_ids, [ok.body.data?.id]);
    assert.ok(ok.headers.get('x-rate-limit-reset'));
    assert.equal((await post({ text: `${'🙂'.repeat(140)}` })).status, 201);
    assert.equal((await post({ text: 'dup text' })).status, 201);
    const dup = await post({ text: 'dup text' });
    assert.equal(dup.status, 403);
    assert.match(String(dup.body.detail), /duplicate content/);
    assert.equal(param((await post({ text: 'x', bogus: 1 })).body), 'bogus');
  });

  test('media: chunked upload, processing for video, alt text; 4 images or 1 video, never mixed', async () => {
    const images = [await upload(samples.jpeg, 'image/jpeg', 'tweet_image'), await upload(samples.png, 'image/png', 'tweet_image')];
    const alt = await call('POST', '/2/media/metadata', { id: images[0], metadata: { alt_text: { text: 'a cake' } } });
    assert.equal(alt.status, 200);
    assert.equal((await post({ text: 'two images', media: { media_ids: images } })).status, 201);
    const video = await upload(samples.mp4, 'video/mp4', 'tweet_video');
    const early = await post({ text: 'video too soon', media: { media_ids: [video] } });
    assert.equal(early.status, 400);
    const status = await call('GET', `/2/media/upload?command=STATUS&media_id=${video}`);
    assert.equal((status.body.data?.processing_info as { state: string }).state, 'in_progress');
    sb.state.clock.advance(3000);
    const done = await call('GET', `/2/media/upload?command=STATUS&media_id=${video}`);
    assert.equal((done.body.data?.processing_info as { state: string }).state, 'succeeded');
    const image = await upload(samples.jpeg, 'image/jpeg', 'tweet_image');
    assert.equal((await post({ text: 'mixed', media: { media_ids: [video, image] } })).status, 400);
    assert.equal((await post({ text: 'the video', media: { media_ids: [video] } })).status, 201);
    const lying = await upload(samples.html, 'video/mp4', 'tweet_video');
    sb.state.clock.advance(3000);
    const failed = await call('GET', `/2/media/upload?command=STATUS&media_id=${lying}`);
    assert.equal((failed.body.data?.processing_info as { state: string }).state, 'failed');
  });

  test('polls, replies, quotes, reply settings; delete; the timeline pages newest first', async () => {
    assert.equal(param((await post({ text: 'poll', poll: { options: ['one'], duration_minutes: 60 } })).body), 'poll.options');
    assert.equal(param((await post({ text: 'poll', poll: { options: ['a', 'b'], duration_minutes: 4 } })).body), 'poll.duration_minutes');
    const poll = await post({ text: 'a poll', poll: { options: ['a', 'b'], duration_minutes: 60 }, reply_settings: 'following' });
    assert.equal(poll.status, 201);
    const id = String(poll.body.data?.id);
    assert.equal(param((await post({ text: 'bad settings', reply_settings: 'everyone' })).body), 'reply_settings');
    assert.equal((await post({ text: 'a reply', reply: { in_reply_to_tweet_id: id } })).status, 201);
    assert.equal((await post({ text: 'a quote', quote_tweet_id: id })).status, 201);
    assert.equal(param((await post({ text: 'quote + poll', quote_tweet_id: id, poll: { options: ['a', 'b'], duration_minutes: 60 } })).body), 'poll');
    const page = await call('GET', `/2/users/${userId}/tweets?max_results=5&tweet.fields=created_at,entities`);
    assert.equal(page.status, 200);
    assert.equal((page.body.data as unknown as unknown[]).length, 5);
    assert.ok((page.body.meta as { next_token?: string }).next_token);
    assert.deepEqual((await call('DELETE', `/2/tweets/${id}`)).body, { data: { deleted: true } });
    assert.equal((await post({ text: 'reply to gone', reply: { in_reply_to_tweet_id: id } })).status, 400);
  });

  test('edits within 30 minutes make a new id in the chain', async () => {
    const first = await post({ text: 'to edit' });
    const edited = await post({ text: 'edited', edit_options: { previous_post_id: first.body.data?.id } });
    assert.equal(edited.status, 201);
    assert.deepEqual(edited.body.data?.edit_history_tweet_ids, [first.body.data?.id, edited.body.data?.id]);
    sb.state.clock.advance(31 * 60_000);
    assert.equal(param((await post({ text: 'too late', edit_options: { previous_post_id: edited.body.data?.id } })).body), 'edit_options.previous_post_id');
  });

  test('reads off: 403 client-forbidden; the 15-minute window answers 429 with x-rate-limit-reset', async () => {
    sb.state.updateSettings({ x: { reads: false } });
    const forbidden = await call('GET', `/2/users/${userId}/tweets`);
    assert.equal(forbidden.status, 403);
    assert.match(String(forbidden.body.type), /client-forbidden/);
    sb.state.updateSettings({ x: { reads: true, postsPer15Min: 1 } });
    sb.state.clock.advance(16 * 60_000);
    assert.equal((await post({ text: 'one in the window' })).status, 201);
    const limited = await post({ text: 'two in the window' });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('x-rate-limit-reset')) > 0);
    assert.equal(limited.headers.get('retry-after'), null);
  });
});
