// Pinterest against the sandbox (platforms/pinterest.md): the consent page and the token endpoint
// with HTTP Basic client auth and continuous refresh (each refresh answers a new refresh token,
// the used one stops working); the user account, boards and sections of `sandbox_pins`; Pins by
// image URL, as a carousel and as a video registered through /v5/media, posted by form to its
// S3-like URL and processed; a board's Pins newest first; PATCH, DELETE, analytics; what Pinterest
// refuses (another user's board, a section of another board, field limits, unready media), the
// Trial-access refusal and the per-minute write limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, fileServer, openConsent, samples, sandbox, type FileServer } from './helpers.ts';

const CLIENT = 'pin-app';
const SECRET = 'pin-secret';
const REDIRECT = 'https://app.example/callback/pinterest';
const BASIC = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;
const SCOPES = 'boards:read,boards:read_secret,boards:write,pins:read,pins:read_secret,pins:write,user_accounts:read';

type Body = Record<string, unknown>;

describe('pinterest', () => {
  let sb: RunningSandbox;
  let files: FileServer;
  let api: string;
  let token: string;
  let refresh: string;

  const authorizeUrl = () => `${sb.url}/www.pinterest.com/oauth/?client_id=${CLIENT}&response_type=code&state=s1&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${encodeURIComponent(SCOPES)}`;
  const tokenCall = (params: Record<string, string>, auth = BASIC) => fetch(`${api}/v5/oauth/token`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams(params) });
  const call = async (method: string, path: string, json?: unknown, bearer = token): Promise<{ status: number; body: Body }> => {
    const res = await fetch(`${api}${path}`, { method, headers: { authorization: `Bearer ${bearer}`, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Body) : {} };
  };
  const boards = async () => ((await call('GET', '/v5/boards')).body.items as Array<{ id: string; name: string }>);
  const sections = async (boardId: string) => ((await call('GET', `/v5/boards/${boardId}/sections`)).body.items as Array<{ id: string; name: string }>);

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'pinterest', clientId: CLIENT, clientSecret: SECRET }] });
    files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/b.png': { body: samples.png }, '/c.mp4': { body: samples.mp4 }, '/t.txt': { body: Buffer.from('not an image'), type: 'text/plain' } });
    api = `${sb.url}/api.pinterest.com`;
    assert.match((await openConsent(authorizeUrl())).html, /sandbox_pins/);
    const location = await consent(authorizeUrl());
    assert.equal(location.searchParams.get('state'), 's1');
    const res = await tokenCall({ grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: REDIRECT });
    const body = (await res.json()) as Body;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.expires_in, 2_592_000);
    assert.equal(body.refresh_token_expires_in, 31_536_000);
    assert.equal(body.scope, SCOPES);
    token = String(body.access_token);
    refresh = String(body.refresh_token);
  });
  after(async () => {
    await sb.close();
    await files.close();
  });

  test('consent: Cancel redirects with error=access_denied; the token endpoint takes only Basic client auth', async () => {
    const denied = await consent(authorizeUrl(), { decision: 'deny' });
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    const location = await consent(authorizeUrl());
    const inBody = await fetch(`${api}/v5/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: REDIRECT, client_id: CLIENT, client_secret: SECRET }) });
    assert.equal(inBody.status, 401);
    assert.deepEqual(Object.keys((await inBody.json()) as Body), ['code', 'message']);
  });

  test('continuous refresh: a new refresh token in every answer, the used one refused after', async () => {
    const first = await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh });
    const body = (await first.json()) as Body;
    assert.equal(first.status, 200, JSON.stringify(body));
    assert.equal(body.response_type, 'refresh_token');
    assert.notEqual(body.refresh_token, refresh);
    assert.equal((await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh })).status, 400);
    const again = await tokenCall({ grant_type: 'refresh_token', refresh_token: String(body.refresh_token) });
    assert.equal(again.status, 200);
    token = String(((await again.json()) as Body).access_token);
  });

  test('user_account; boards with their sections; another user’s board is not found', async () => {
    const me = await call('GET', '/v5/user_account');
    assert.equal(me.status, 200);
    assert.equal(me.body.username, 'sandbox_pins');
    assert.equal(me.body.board_count, 2);
    const list = await boards();
    assert.deepEqual(list.map((b) => b.name), ['Sandbox Recipes', 'Sandbox Reading']);
    assert.deepEqual((await sections(list[0]?.id ?? '')).map((s) => s.name), ['Breads', 'Cakes']);
    const other = sb.state.addPinterestUser({ username: 'someone_else', boards: [{ name: 'Theirs' }] });
    const theirs = other.boards[0]?.id ?? '';
    assert.equal((await call('GET', `/v5/boards/${theirs}`)).status, 404);
    const pin = await call('POST', '/v5/pins', { board_id: theirs, media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } });
    assert.equal(pin.status, 404, JSON.stringify(pin.body));
    assert.equal((await call('GET', '/v5/boards?page_size=251')).status, 400);
  });

  test('an image Pin in a section, then a carousel; the board lists them newest first; field limits and refusals', async () => {
    const [recipes] = await boards();
    const [breads] = await sections(recipes?.id ?? '');
    const image = await call('POST', '/v5/pins', { board_id: recipes?.id, board_section_id: breads?.id, title: 'Rye', description: 'A loaf', link: 'https://bakery.example/rye', alt_text: 'Bread', media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } });
    assert.equal(image.status, 201, JSON.stringify(image.body));
    assert.match(String(image.body.id), /^\d{18}$/);
    assert.equal(image.body.board_section_id, breads?.id);
    const carousel = await call('POST', '/v5/pins', { board_id: recipes?.id, description: 'Two', media_source: { source_type: 'multiple_image_urls', items: [{ url: `${files.url}/a.jpg` }, { url: `${files.url}/b.png` }] } });
    assert.equal(carousel.status, 201, JSON.stringify(carousel.body));
    const listed = await call('GET', `/v5/boards/${recipes?.id ?? ''}/pins?page_size=1`);
    assert.deepEqual((listed.body.items as Body[]).map((p) => p.id), [carousel.body.id]);
    const next = await call('GET', `/v5/boards/${recipes?.id ?? ''}/pins?page_size=1&bookmark=${String(listed.body.bookmark)}`);
    assert.deepEqual((next.body.items as Body[]).map((p) => p.id), [image.body.id]);
    assert.match(String(image.body.created_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const refusals: Array<[Body, RegExp]> = [
      [{ board_id: recipes?.id, title: 't'.repeat(101), media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } }, /title/],
      [{ board_id: recipes?.id, description: 'd'.repeat(801), media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } }, /description/],
      [{ board_id: recipes?.id, media_source: { source_type: 'multiple_image_urls', items: [{ url: `${files.url}/a.jpg` }] } }, /2 to 5/],
      [{ board_id: recipes?.id, media_source: { source_type: 'image_url', url: `${files.url}/t.txt` } }, /not an image/],
      [{ board_id: recipes?.id, media_source: { source_type: 'image_url', url: `${files.url}/missing.jpg` } }, /could not fetch/],
      [{ media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } }, /board_id/],
    ];
    for (const [body, message] of refusals) {
      const res = await call('POST', '/v5/pins', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(String(res.body.message), message);
    }
    const reading = (await boards())[1];
    const wrongSection = await call('POST', '/v5/pins', { board_id: reading?.id, board_section_id: breads?.id, media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } });
    assert.equal(wrongSection.status, 404);
  });

  test('a video: registered, posted by form with every parameter, processed, then pinned; an unready media id is refused', async () => {
    const [recipes] = await boards();
    const registered = await call('POST', '/v5/media', { media_type: 'video' });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const mediaId = String(registered.body.media_id);
    const early = await call('POST', '/v5/pins', { board_id: recipes?.id, media_source: { source_type: 'video_id', media_id: mediaId, cover_image_key_frame_time: 0 } });
    assert.equal(early.status, 400);
    assert.match(String(early.body.message), /registered/);
    const parameters = registered.body.upload_parameters as Record<string, string>;
    const uploadUrl = String(registered.body.upload_url).replace('https://', `${sb.url}/`);
    const missing = new FormData();
    for (const [name, value] of Object.entries(parameters)) if (name !== 'policy') missing.set(name, value);
    missing.set('file', new Blob([samples.mp4]), 'video.mp4');
    assert.equal((await fetch(uploadUrl, { method: 'POST', body: missing })).status, 403);
    const form = new FormData();
    for (const [name, value] of Object.entries(parameters)) form.set(name, value);
    form.set('file', new Blob([samples.mp4]), 'video.mp4');
    const uploaded = await fetch(uploadUrl, { method: 'POST', body: form });
    assert.equal(uploaded.status, 204, await uploaded.text());
    assert.equal((await call('GET', `/v5/media/${mediaId}`)).body.status, 'processing');
    sb.state.clock.advance(1000);
    assert.equal((await call('GET', `/v5/media/${mediaId}`)).body.status, 'succeeded');
    const noCover = await call('POST', '/v5/pins', { board_id: recipes?.id, media_source: { source_type: 'video_id', media_id: mediaId } });
    assert.equal(noCover.status, 400);
    const pin = await call('POST', '/v5/pins', { board_id: recipes?.id, title: 'Kneading', media_source: { source_type: 'video_id', media_id: mediaId, cover_image_key_frame_time: 2 } });
    assert.equal(pin.status, 201, JSON.stringify(pin.body));
    assert.equal((pin.body.media as Body).media_type, 'video');
    const reused = await call('POST', '/v5/pins', { board_id: recipes?.id, media_source: { source_type: 'video_id', media_id: mediaId, cover_image_key_frame_time: 2 } });
    assert.equal(reused.status, 400);
  });

  test('PATCH and DELETE own Pins; analytics within 90 days; another user’s Pin is not found', async () => {
    const [recipes] = await boards();
    const created = await call('POST', '/v5/pins', { board_id: recipes?.id, description: 'before', media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } });
    const id = String(created.body.id);
    const patched = await call('PATCH', `/v5/pins/${id}`, { description: 'after' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.description, 'after');
    assert.equal((await call('PATCH', `/v5/pins/${id}`, { description: 'x'.repeat(801) })).status, 400);
    const stored = sb.state.pinterest.pins.get(id);
    assert.ok(stored);
    stored.metrics.impressions = 40;
    const today = new Date(sb.state.clock.now()).toISOString().slice(0, 10);
    const stats = await call('GET', `/v5/pins/${id}/analytics?start_date=${today}&end_date=${today}&metric_types=IMPRESSION,SAVE&app_types=ALL`);
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    assert.deepEqual((stats.body.all as Body).summary_metrics, { IMPRESSION: 40, SAVE: 0 });
    assert.equal((await call('GET', `/v5/pins/${id}/analytics?start_date=2000-01-01&end_date=${today}&metric_types=IMPRESSION`)).status, 400);
    const other = sb.state.addPinterestUser({ username: 'pin_thief' });
    const otherToken = 'pina_other';
    sb.state.issueToken({ value: otherToken, platform: 'pinterest', type: 'user', clientId: CLIENT, subjectId: other.user.id, userId: other.user.id, scopes: SCOPES.split(','), declined: [], pageIds: [], ttlSeconds: 3600, longLived: false });
    assert.equal((await call('DELETE', `/v5/pins/${id}`, undefined, otherToken)).status, 404);
    assert.equal((await call('DELETE', `/v5/pins/${id}`)).status, 204);
    assert.equal((await call('GET', `/v5/pins/${id}`)).status, 404);
  });

  test('Trial access: Pin creation on api.pinterest.com answers 403 code 29; a write window over its limit answers 429', async () => {
    const [recipes] = await boards();
    const body = { board_id: recipes?.id, media_source: { source_type: 'image_url', url: `${files.url}/a.jpg` } };
    sb.state.updateSettings({ pinterest: { trial: true } });
    const trial = await call('POST', '/v5/pins', body);
    assert.equal(trial.status, 403);
    assert.equal(trial.body.code, 29);
    sb.state.updateSettings({ pinterest: { trial: false, writesPerMinute: 1 } });
    sb.state.clock.advance(60_000);
    assert.equal((await call('POST', '/v5/pins', body)).status, 201);
    assert.equal((await call('POST', '/v5/pins', body)).status, 429);
    sb.state.updateSettings({ pinterest: { writesPerMinute: 100 } });
  });
});
