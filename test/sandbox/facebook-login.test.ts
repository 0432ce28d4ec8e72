// Facebook Login against the sandbox, driven the way the real API documents it (platforms.md
// §1.5): the dialog as a browser sees it, the code exchange, the long-lived exchange, Page
// tokens, permissions, debug_token, and the token errors of §1.3.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, graphErrorOf, json, openConsent, sandbox, submitConsent } from './helpers.ts';

const APP = '1234567890';
const SECRET = 'fb-secret';
const REDIRECT = 'https://app.example/callback/facebook?x=1';
const SCOPES = ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'instagram_basic', 'instagram_content_publish'];

describe('Facebook Login', () => {
  let sb: RunningSandbox;
  let graph: string;
  const dialog = (scope = SCOPES.join(','), state = 'st4te') =>
    `${sb.url}/www.facebook.com/v24.0/dialog/oauth?client_id=${APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=${state}&scope=${scope}&response_type=code`;
  const exchange = (code: string, redirect = REDIRECT, secret = SECRET) =>
    fetch(`${graph}/oauth/access_token?client_id=${APP}&client_secret=${secret}&redirect_uri=${encodeURIComponent(redirect)}&code=${encodeURIComponent(code)}`);
  const login = async (options: Parameters<typeof consent>[1] = {}) => {
    const location = await consent(dialog(), options);
    const code = location.searchParams.get('code') ?? '';
    return (await json(await exchange(code))) as { access_token: string; expires_in: number };
  };

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'facebook', clientId: APP, clientSecret: SECRET }] });
    graph = `${sb.url}/graph.facebook.com/v24.0`;
  });
  after(() => sb.close());

  test('the dialog shows the user, the permissions and the Pages; Allow redirects with code and state', async () => {
    const form = await openConsent(dialog());
    assert.match(form.html, /Sandbox User/);
    assert.deepEqual(form.scopes, SCOPES);
    assert.equal(form.pages.length, 2);
    assert.match(form.html, /Sandbox Bakery/);
    const location = await submitConsent(form);
    assert.equal(location.origin + location.pathname, 'https://app.example/callback/facebook');
    assert.equal(location.searchParams.get('x'), '1');
    assert.equal(location.searchParams.get('state'), 'st4te');
    assert.ok(location.searchParams.get('code'));
    assert.equal(location.hash, '#_=_');
  });

  test('a permission Facebook Login does not know is refused on the dialog: Invalid Scopes, no redirect, no code', async () => {
    const pending = sb.state.authorizations.size;
    const res = await fetch(dialog(`${SCOPES.join(',')},pages_read_user_engagement,pages_read_user_content`), { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
    const html = await res.text();
    assert.match(html, /Invalid Scopes: pages_read_user_engagement\./);
    assert.doesNotMatch(html, /pages_read_user_content\./, 'a real permission is not named');
    assert.equal(sb.state.authorizations.size, pending, 'no consent is pending');
    assert.equal((await fetch(dialog(`${SCOPES.join(',')},pages_read_user_content`), { redirect: 'manual' })).status, 200);
  });

  test('Cancel redirects with the error parameters', async () => {
    const location = await consent(dialog(), { decision: 'deny' });
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('error_reason'), 'user_denied');
    assert.equal(location.searchParams.get('state'), 'st4te');
    assert.equal(location.searchParams.get('code'), null);
  });

  test('code exchange, long-lived exchange, /me, /me/accounts with Page tokens, /me/permissions', async () => {
    const short = await login({ untick: ['pages_manage_posts'] });
    assert.match(short.access_token, /^EAA/);
    assert.ok(short.expires_in > 0 && short.expires_in < 86_400);
    const long = (await json(
      await fetch(`${graph}/oauth/access_token?grant_type=fb_exchange_token&client_id=${APP}&client_secret=${SECRET}&fb_exchange_token=${short.access_token}`),
    )) as { access_token: string; expires_in: number; token_type: string };
    assert.equal(long.token_type, 'bearer');
    assert.ok(long.expires_in > 50 * 86_400);

    const me = await json(await fetch(`${graph}/me?fields=id,name,email`, { headers: { authorization: `Bearer ${long.access_token}` } }));
    assert.equal(me.name, 'Sandbox User');
    assert.equal(typeof me.id, 'string');

    const accounts = (await json(await fetch(`${graph}/me/accounts?fields=id,name,access_token,tasks,instagram_business_account&access_token=${long.access_token}`))) as {
      data: Array<{ id: string; name: string; access_token: string; tasks: string[]; instagram_business_account?: { id: string } }>;
    };
    assert.equal(accounts.data.length, 2);
    const bakery = accounts.data.find((p) => p.name === 'Sandbox Bakery');
    assert.ok(bakery?.instagram_business_account?.id);
    assert.ok(bakery.tasks.includes('CREATE_CONTENT'));

    // A Page token from a long-lived user token does not expire.
    const debug = (await json(await fetch(`${graph}/debug_token?input_token=${bakery.access_token}&access_token=${APP}|${SECRET}`))) as {
      data: { type: string; expires_at: number; is_valid: boolean; profile_id: string };
    };
    assert.deepEqual([debug.data.type, debug.data.expires_at, debug.data.is_valid, debug.data.profile_id], ['PAGE', 0, true, bakery.id]);
    const pageMe = await json(await fetch(`${graph}/me?access_token=${bakery.access_token}`));
    assert.equal(pageMe.id, bakery.id);

    const perms = (await json(await fetch(`${graph}/me/permissions?access_token=${long.access_token}`))) as { data: Array<{ permission: string; status: string }> };
    assert.deepEqual(perms.data.find((p) => p.permission === 'pages_manage_posts'), { permission: 'pages_manage_posts', status: 'declined' });
    assert.deepEqual(perms.data.find((p) => p.permission === 'pages_show_list'), { permission: 'pages_show_list', status: 'granted' });

    const ig = await json(await fetch(`${graph}/${bakery.instagram_business_account.id}?fields=id,username&access_token=${long.access_token}`));
    assert.equal(ig.username, 'sandbox.bakery');
  });

  test('only the Pages ticked are granted, and debug_token lists them as target_ids', async () => {
    const form = await openConsent(dialog());
    const [first, second] = form.pages;
    const location = await submitConsent(form, { untick: [second ?? ''] });
    const token = (await json(await exchange(location.searchParams.get('code') ?? ''))) as { access_token: string };
    const accounts = (await json(await fetch(`${graph}/me/accounts?access_token=${token.access_token}`))) as { data: Array<{ id: string }> };
    assert.deepEqual(accounts.data.map((p) => p.id), [first]);
    const debug = (await json(await fetch(`${graph}/debug_token?input_token=${token.access_token}&access_token=${APP}|${SECRET}`))) as {
      data: { granular_scopes: Array<{ scope: string; target_ids?: string[] }> };
    };
    assert.deepEqual(debug.data.granular_scopes.find((s) => s.scope === 'pages_show_list')?.target_ids, [first]);
  });

  test('codes are single use, expire, and are bound to the redirect_uri and the secret', async () => {
    const code = (await consent(dialog())).searchParams.get('code') ?? '';
    assert.equal((await graphErrorOf(await exchange(code, 'https://evil.example/cb'))).error_subcode, 36008);
    assert.equal((await graphErrorOf(await exchange(code, REDIRECT, 'wrong'))).message, 'Error validating client secret.');
    assert.equal((await exchange(code)).status, 200);
    const reused = await exchange(code);
    assert.equal(reused.status, 400);
    assert.deepEqual(await graphErrorOf(reused).then((e) => [e.code, e.error_subcode]), [100, 36009]);

    const late = (await consent(dialog())).searchParams.get('code') ?? '';
    sb.state.clock.advance(11 * 60_000);
    assert.deepEqual(await graphErrorOf(await exchange(late)).then((e) => [e.code, e.error_subcode]), [100, 36007]);
  });

  test('expired, revoked and unknown tokens answer 190 with their subcodes', async () => {
    const token = (await login()).access_token;
    assert.equal((await fetch(`${graph}/me?access_token=${token}`)).status, 200);
    sb.state.clock.advance(2 * 3600_000);
    const expired = await fetch(`${graph}/me?access_token=${token}`);
    assert.equal(expired.status, 400);
    assert.match(expired.headers.get('www-authenticate') ?? '', /invalid_token/);
    assert.deepEqual(await graphErrorOf(expired).then((e) => [e.code, e.error_subcode, e.type]), [190, 463, 'OAuthException']);

    const other = (await login()).access_token;
    const revoke = await fetch(`${sb.url}/_sandbox/tokens/revoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: other }) });
    assert.equal(revoke.status, 200);
    assert.deepEqual(await graphErrorOf(await fetch(`${graph}/me?access_token=${other}`)).then((e) => [e.code, e.error_subcode]), [190, 467]);

    const unknown = await graphErrorOf(await fetch(`${graph}/me?access_token=EAAnothing`));
    assert.deepEqual([unknown.code, unknown.error_subcode], [190, undefined]);
    assert.equal((await graphErrorOf(await fetch(`${graph}/me`))).code, 2500);
  });

  test('a missing permission is error 200; removing all permissions deauthorizes every token', async () => {
    const location = await consent(dialog(), { untick: ['pages_show_list'] });
    const token = ((await json(await exchange(location.searchParams.get('code') ?? ''))) as { access_token: string }).access_token;
    const denied = await graphErrorOf(await fetch(`${graph}/me/accounts?access_token=${token}`));
    assert.equal(denied.code, 200);
    assert.match(denied.message, /pages_show_list/);

    const full = (await login()).access_token;
    const removed = await json(await fetch(`${graph}/me/permissions?access_token=${full}`, { method: 'DELETE' }));
    assert.deepEqual(removed, { success: true });
    assert.equal((await graphErrorOf(await fetch(`${graph}/me?access_token=${full}`))).error_subcode, 458);
  });

  test('unknown ids and paths get Graph errors, not the service shape', async () => {
    const token = (await login()).access_token;
    const missing = await graphErrorOf(await fetch(`${graph}/999999/feed?access_token=${token}`));
    assert.deepEqual([missing.code, missing.error_subcode, missing.type], [100, 33, 'GraphMethodException']);
    const deep = await graphErrorOf(await fetch(`${graph}/a/b/c/d?access_token=${token}`));
    assert.equal(deep.code, 2500);
    const any = await fetch(`${sb.url}/graph.facebook.com/v19.0/me?access_token=${token}`);
    assert.equal(any.status, 200);
  });

  test('a queued consent choice completes the dialog at once', async () => {
    await fetch(`${sb.url}/_sandbox/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'facebook', decision: 'deny' }),
    });
    const res = await fetch(dialog(), { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(new URL(res.headers.get('location') ?? '').searchParams.get('error'), 'access_denied');
  });
});
