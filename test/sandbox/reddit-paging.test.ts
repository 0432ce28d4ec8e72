// reddit listing paging against the sandbox: /user/{name}/submitted newest first, `limit`, and
// `after` / `before` fullnames with `count`, the answer's `after` naming the last link while
// more follow and `before` the first once some precede (what the create-once look relies on).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, sandbox } from './helpers.ts';

const CLIENT = 'reddit-client';
const SECRET = 'reddit-secret';
const REDIRECT = 'https://app.example/callback/reddit';
const UA = 'web:com.example.socialapi:v1.0.0 (by /u/sandbox)';

type Listing = { kind: string; data: { after: string | null; before: string | null; dist: number; children: Array<{ kind: string; data: { name: string; title: string } }> } };

describe('reddit: listing paging', () => {
  let sb: RunningSandbox;
  let token: string;
  const titles = Array.from({ length: 7 }, (_, i) => `Paged ${i}`);

  const call = (method: string, path: string, params?: Record<string, string>) =>
    fetch(`${sb.url}/oauth.reddit.com${path}`, { method, headers: { authorization: `bearer ${token}`, 'user-agent': UA }, body: params ? new URLSearchParams(params) : undefined });
  const submitted = async (query: string) => (await (await call('GET', `/user/sandbox_user/submitted?sort=new&${query}`)).json()) as Listing;
  const names = (l: Listing) => l.data.children.map((c) => c.data.title);

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'reddit', clientId: CLIENT, clientSecret: SECRET }] });
    const authorize = `${sb.url}/www.reddit.com/api/v1/authorize?client_id=${CLIENT}&response_type=code&state=p1&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${encodeURIComponent('identity submit history')}`;
    const code = (await consent(authorize)).searchParams.get('code') ?? '';
    const res = await fetch(`${sb.url}/www.reddit.com/api/v1/access_token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`, 'user-agent': UA },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
    // Made within one second: the listing keeps the order they were made in.
    for (const title of titles) assert.equal((await call('POST', '/api/submit', { api_type: 'json', sr: 'sandbox', kind: 'self', title, text: '' })).status, 200);
  });
  after(() => sb.close());

  test('pages newest first with after and count, then back with before; the last page has after null', async () => {
    const first = await submitted('limit=3');
    assert.equal(first.kind, 'Listing');
    assert.deepEqual(names(first), ['Paged 6', 'Paged 5', 'Paged 4']);
    assert.equal(first.data.before, null);
    assert.equal(first.data.after, first.data.children[2]?.data.name);
    const second = await submitted(`limit=3&count=3&after=${first.data.after ?? ''}`);
    assert.deepEqual(names(second), ['Paged 3', 'Paged 2', 'Paged 1']);
    assert.equal(second.data.before, second.data.children[0]?.data.name);
    const last = await submitted(`limit=3&count=6&after=${second.data.after ?? ''}`);
    assert.deepEqual(names(last), ['Paged 0']);
    assert.equal(last.data.after, null, 'nothing follows');
    const back = await submitted(`limit=3&count=3&before=${second.data.before ?? ''}`);
    assert.deepEqual(names(back), ['Paged 6', 'Paged 5', 'Paged 4']);
    assert.equal(back.data.before, null);
  });

  test('a cursor that is not in the listing gives an empty page; limit is at most 100', async () => {
    const gone = await submitted('limit=3&after=t3_zzzzzz');
    assert.deepEqual(gone.data.children, []);
    assert.equal(gone.data.after, null);
    assert.equal((await submitted('limit=500')).data.dist, titles.length);
  });
});
