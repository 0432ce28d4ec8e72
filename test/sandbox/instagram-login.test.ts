// Instagram API with Instagram Login against the sandbox (platforms.md §2.2, §12): authorize,
// code exchange with a bare 64-bit user_id, 60-day exchange, refresh after 24 hours, /me.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, graphErrorOf, openConsent, sandbox } from './helpers.ts';

const APP = '990602627938098';
const SECRET = 'ig-secret';
const REDIRECT = 'https://app.example/callback/instagram';

describe('Instagram Login', () => {
  let sb: RunningSandbox;
  const authorize = (scope = 'instagram_business_basic,instagram_business_content_publish') =>
    `${sb.url}/www.instagram.com/oauth/authorize?client_id=${APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=${scope}&state=s1`;
  const exchange = (code: string, secret = SECRET) =>
    fetch(`${sb.url}/api.instagram.com/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: APP, client_secret: secret, grant_type: 'authorization_code', redirect_uri: REDIRECT, code }),
    });

  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  test('authorize, exchange (user_id as a bare int64), long-lived, /me, refresh', async () => {
    const form = await openConsent(authorize());
    assert.match(form.html, /@sandbox\.bakery/);
    const location = await consent(authorize());
    assert.equal(location.hash, '#_');
    assert.equal(location.searchParams.get('state'), 's1');
    const res = await exchange(location.searchParams.get('code') ?? '');
    assert.equal(res.status, 200);
    const text = await res.text();
    const userId = /"user_id":(\d+)/.exec(text)?.[1] ?? '';
    assert.ok(BigInt(userId) > BigInt(Number.MAX_SAFE_INTEGER), 'user_id is an unquoted number past 2^53');
    const short = JSON.parse(text) as { access_token: string; permissions: string[] };
    assert.deepEqual(short.permissions, ['instagram_business_basic', 'instagram_business_content_publish']);

    const graph = `${sb.url}/graph.instagram.com`;
    const longRes = await fetch(`${graph}/access_token?grant_type=ig_exchange_token&client_secret=${SECRET}&access_token=${short.access_token}`);
    const long = (await longRes.json()) as { access_token: string; token_type: string; expires_in: number };
    assert.equal(long.token_type, 'bearer');
    assert.ok(long.expires_in > 59 * 86_400);

    const me = (await (await fetch(`${graph}/v24.0/me?fields=user_id,username&access_token=${long.access_token}`)).json()) as { id: string; user_id: string; username: string };
    assert.equal(me.user_id, userId);
    assert.equal(me.username, 'sandbox.bakery');

    const early = await graphErrorOf(await fetch(`${graph}/refresh_access_token?grant_type=ig_refresh_token&access_token=${long.access_token}`));
    assert.equal(early.code, 100);
    sb.state.clock.advance(25 * 3600_000);
    const refreshed = (await (await fetch(`${graph}/refresh_access_token?grant_type=ig_refresh_token&access_token=${long.access_token}`)).json()) as { access_token: string; expires_in: number };
    assert.notEqual(refreshed.access_token, long.access_token);
    assert.ok(refreshed.expires_in > 59 * 86_400);
  });

  test('OAuth endpoint errors use the {error_type, code, error_message} shape; codes are single use', async () => {
    const code = (await consent(authorize())).searchParams.get('code') ?? '';
    const wrong = await exchange(code, 'nope');
    assert.equal(wrong.status, 400);
    assert.equal((await exchange(code)).status, 200);
    const again = await exchange(code);
    assert.deepEqual(await again.json(), { error_type: 'OAuthException', code: 400, error_message: 'Matching code was not found or was already used' });
    const late = (await consent(authorize())).searchParams.get('code') ?? '';
    sb.state.clock.advance(2 * 3600_000);
    assert.match(((await (await exchange(late)).json()) as { error_message: string }).error_message, /expired/);
  });

  test('a scope the person unticked is missing from the token and /me answers error 10', async () => {
    const location = await consent(authorize(), { untick: ['instagram_business_basic'] });
    const token = ((await (await exchange(location.searchParams.get('code') ?? '')).json()) as { access_token: string }).access_token;
    const error = await graphErrorOf(await fetch(`${sb.url}/graph.instagram.com/me?access_token=${token}`));
    assert.equal(error.code, 10);
  });

  test('a Facebook token is not an Instagram token', async () => {
    const error = await graphErrorOf(await fetch(`${sb.url}/graph.instagram.com/me?access_token=EAAxyz`));
    assert.equal(error.code, 190);
  });
});
