// reddit against the sandbox (platforms.md §6, §12): OAuth with Basic client auth and permanent
// refresh tokens, the User-Agent rule, scopes, rate-limit headers, and /api/submit's rules in the
// api_type=json envelope, then comment, edit, delete and info.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, openConsent, sandbox } from './helpers.ts';

const CLIENT = 'reddit-client';
const SECRET = 'reddit-secret';
const REDIRECT = 'https://app.example/callback/reddit';
const UA = 'web:com.example.socialapi:v1.0.0 (by /u/sandbox)';
const BASIC = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;

type Envelope = { json: { errors: Array<[string, string, string]>; data?: Record<string, unknown> } };

describe('reddit', () => {
  let sb: RunningSandbox;
  let www: string;
  let api: string;
  let token: string;
  let refresh: string;

  const authorize = (extra = '&duration=permanent', scope = 'identity submit read edit flair') =>
    `${www}/api/v1/authorize?client_id=${CLIENT}&response_type=code&state=r1&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${encodeURIComponent(scope)}${extra}`;
  const tokenCall = (params: Record<string, string>, auth = BASIC) =>
    fetch(`${www}/api/v1/access_token`, { method: 'POST', headers: { authorization: auth, 'user-agent': UA }, body: new URLSearchParams(params) });
  const call = (method: string, path: string, params?: Record<string, string>, bearer = token, agent = UA) =>
    fetch(`${api}${path}`, { method, headers: { authorization: `bearer ${bearer}`, 'user-agent': agent }, body: params ? new URLSearchParams(params) : undefined });
  const submit = async (params: Record<string, string>) => (await (await call('POST', '/api/submit', { api_type: 'json', ...params })).json()) as Envelope;
  const codes = (env: Envelope) => env.json.errors.map((e) => e[0]);

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'reddit', clientId: CLIENT, clientSecret: SECRET }] });
    www = `${sb.url}/www.reddit.com`;
    api = `${sb.url}/oauth.reddit.com`;
    const form = await openConsent(authorize());
    assert.match(form.html, /u\/sandbox_user/);
    const location = await consent(authorize());
    assert.equal(location.searchParams.get('state'), 'r1');
    const res = await tokenCall({ grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: REDIRECT });
    const body = (await res.json()) as { access_token: string; refresh_token: string; scope: string; expires_in: number; token_type: string };
    assert.equal(body.scope, 'identity submit read edit flair');
    assert.equal(body.token_type, 'bearer');
    token = body.access_token;
    refresh = body.refresh_token;
    assert.ok(refresh);
  });
  after(() => sb.close());

  test('authorize requires state; a temporary grant has no refresh token; denial redirects with error', async () => {
    const noState = await fetch(authorize().replace('state=r1&', ''), { redirect: 'manual' });
    assert.equal(noState.status, 400);
    const badScope = await fetch(authorize('', 'identity fly'), { redirect: 'manual' });
    assert.equal(new URL(badScope.headers.get('location') ?? '').searchParams.get('error'), 'invalid_scope');
    const temp = await consent(authorize(''));
    const body = (await (await tokenCall({ grant_type: 'authorization_code', code: temp.searchParams.get('code') ?? '', redirect_uri: REDIRECT })).json()) as Record<string, unknown>;
    assert.equal(body.refresh_token, undefined);
    const denied = await consent(authorize(), { decision: 'deny' });
    assert.equal(denied.searchParams.get('error'), 'access_denied');
  });

  test('token errors: bad Basic auth is 401; a used code is HTTP 200 invalid_grant; a bad refresh is 400', async () => {
    assert.equal((await tokenCall({ grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT }, `Basic ${Buffer.from(`${CLIENT}:nope`).toString('base64')}`)).status, 401);
    const code = (await consent(authorize())).searchParams.get('code') ?? '';
    assert.equal((await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status, 200);
    const reused = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    assert.deepEqual([reused.status, await reused.json()], [200, { error: 'invalid_grant' }]);
    const bad = await tokenCall({ grant_type: 'refresh_token', refresh_token: 'nope' });
    assert.deepEqual([bad.status, await bad.json()], [400, { error: 'invalid_grant' }]);
  });

  test('/api/v1/me with rate-limit headers; generic User-Agents are throttled; no token is 401', async () => {
    const res = await call('GET', '/api/v1/me');
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { name: string }).name, 'sandbox_user');
    assert.match(res.headers.get('x-ratelimit-remaining') ?? '', /^\d+\.0$/);
    assert.ok(Number(res.headers.get('x-ratelimit-used')) >= 1);
    assert.ok(Number(res.headers.get('x-ratelimit-reset')) <= 600);
    assert.equal((await call('GET', '/api/v1/me', undefined, token, 'node')).status, 429);
    const anon = await call('GET', '/api/v1/me', undefined, 'nope');
    assert.equal(anon.status, 401);
    assert.deepEqual(await anon.json(), { message: 'Unauthorized', error: 401 });
  });

  test('submit: subreddit, title, kind and flair rules answer error triplets', async () => {
    assert.deepEqual(codes(await submit({ sr: 'nope_not_here', kind: 'self', title: 't' })), ['SUBREDDIT_NOEXIST']);
    assert.deepEqual(codes(await submit({ sr: 'sandbox', kind: 'self', title: '' })), ['NO_TEXT']);
    assert.deepEqual(await submit({ sr: 'sandbox', kind: 'self', title: 'x'.repeat(301) }), { json: { errors: [['TOO_LONG', 'this is too long (max: 300)', 'title']] } });
    assert.deepEqual(codes(await submit({ sr: 'sandbox', kind: 'link', title: 't' })), ['NO_URL']);
    assert.deepEqual(codes(await submit({ sr: 'sandbox', kind: 'link', title: 't', url: 'not a url' })), ['BAD_URL']);
    assert.deepEqual(codes(await submit({ sr: 'sandbox_text', kind: 'link', title: 't', url: 'https://example.com' })), ['NO_LINKS']);
    assert.deepEqual(codes(await submit({ sr: 'sandbox_links', kind: 'self', title: 't' })), ['NO_SELFS']);
    assert.deepEqual(codes(await submit({ sr: 'sandbox_flair', kind: 'self', title: 't' })), ['SUBMIT_VALIDATION_FLAIR_REQUIRED']);
    assert.deepEqual(codes(await submit({ sr: 'sandbox', kind: 'self', title: 't', flair_id: 'nope' })), ['INVALID_OPTION']);
  });

  test('flair list, submit with flair, then info, comment, edit and delete', async () => {
    const flairs = (await (await call('GET', '/r/sandbox_flair/api/link_flair_v2')).json()) as Array<{ id: string; text: string }>;
    assert.deepEqual(flairs.map((f) => f.text), ['Question', 'Showcase']);
    assert.equal((await call('GET', '/r/nope_not_here/api/link_flair_v2')).status, 404);

    const posted = await submit({ sr: 'sandbox_flair', kind: 'self', title: 'Hello sandbox', text: 'body', flair_id: flairs[0]?.id ?? '' });
    assert.deepEqual(posted.json.errors, []);
    const data = posted.json.data ?? {};
    assert.match(String(data.name), /^t3_[0-9a-z]+$/);
    assert.match(String(data.url), /^https:\/\/www\.reddit\.com\/r\/sandbox_flair\/comments\/[0-9a-z]+\/hello_sandbox\/$/);

    const listing = (await (await call('GET', `/api/info?id=${String(data.name)}`)).json()) as {
      kind: string;
      data: { children: Array<{ kind: string; data: { title: string; link_flair_text: string; selftext: string } }> };
    };
    assert.equal(listing.kind, 'Listing');
    assert.deepEqual([listing.data.children[0]?.data.title, listing.data.children[0]?.data.link_flair_text], ['Hello sandbox', 'Question']);

    const commented = (await (await call('POST', '/api/comment', { api_type: 'json', thing_id: String(data.name), text: 'first!' })).json()) as Envelope & {
      json: { data: { things: Array<{ kind: string; data: { name: string; body: string; link_id: string } }> } };
    };
    const comment = commented.json.data.things[0];
    assert.equal(comment?.kind, 't1');
    assert.equal(comment?.data.link_id, data.name);

    const edited = (await (await call('POST', '/api/editusertext', { api_type: 'json', thing_id: String(data.name), text: 'edited body' })).json()) as Envelope;
    assert.deepEqual(edited.json.errors, []);
    assert.equal((await call('POST', '/api/del', { id: comment?.data.name ?? '' })).status, 200);
    const after = (await (await call('GET', `/api/info?id=${String(data.name)},${comment?.data.name ?? ''}`)).json()) as {
      data: { children: Array<{ data: { selftext?: string; body?: string; author: string } }> };
    };
    assert.equal(after.data.children[0]?.data.selftext, 'edited body');
    assert.deepEqual([after.data.children[1]?.data.body, after.data.children[1]?.data.author], ['[deleted]', '[deleted]']);
  });

  test('a link can be submitted once per subreddit unless resubmit', async () => {
    const link = { sr: 'sandbox', kind: 'link', title: 'A link', url: 'https://example.com/article' };
    assert.deepEqual((await submit(link)).json.errors, []);
    assert.deepEqual(codes(await submit(link)), ['ALREADY_SUB']);
    assert.deepEqual((await submit({ ...link, resubmit: 'true' })).json.errors, []);
  });

  test('scopes are enforced with 403 and insufficient_scope', async () => {
    const location = await consent(authorize('', 'identity'));
    const narrow = ((await (await tokenCall({ grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: REDIRECT })).json()) as { access_token: string }).access_token;
    const res = await call('POST', '/api/submit', { api_type: 'json', sr: 'sandbox', kind: 'self', title: 't' }, narrow);
    assert.equal(res.status, 403);
    assert.match(res.headers.get('www-authenticate') ?? '', /insufficient_scope/);
  });

  test('expired tokens are 401; refresh gives a new access token; revoking the refresh token ends both', async () => {
    sb.state.clock.advance(3601_000);
    assert.equal((await call('GET', '/api/v1/me')).status, 401);
    const refreshed = (await (await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh })).json()) as { access_token: string; refresh_token: string };
    assert.equal(refreshed.refresh_token, refresh);
    assert.equal((await call('GET', '/api/v1/me', undefined, refreshed.access_token)).status, 200);
    const revoke = await fetch(`${www}/api/v1/revoke_token`, { method: 'POST', headers: { authorization: BASIC, 'user-agent': UA }, body: new URLSearchParams({ token: refresh, token_type_hint: 'refresh_token' }) });
    assert.equal(revoke.status, 204);
    assert.equal((await call('GET', '/api/v1/me', undefined, refreshed.access_token)).status, 401);
    assert.equal((await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh })).status, 400);
  });

  test('the per-client window answers 429 past the limit', async () => {
    sb.state.updateSettings({ limits: { redditRequestsPerWindow: 3 } });
    sb.state.clock.advance(600_000);
    const code = (await consent(authorize())).searchParams.get('code') ?? '';
    const fresh = ((await (await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json()) as { access_token: string }).access_token;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('GET', '/api/v1/me', undefined, fresh)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    sb.state.updateSettings({ limits: { redditRequestsPerWindow: 1000 } });
  });
});
