// LinkedIn against the sandbox (linkedin.md): OAuth with the organizations on the consent page,
// userinfo and organizationAcls, the /rest headers (LinkedIn-Version, X-Restli-Protocol-Version),
// little-text escaping, uploads to signed URLs without the bearer token (videos in parts with
// ETags and finalize), every content type, the duplicate 422, the daily 429, list and delete.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { consent, openConsent, sandbox } from './helpers.ts';
import * as media from '../fixtures/media.ts';

const APP = 'sandbox-linkedin-client';
const SECRET = 'li-secret';
const REDIRECT = 'https://app.example/callback/linkedin';
const SCOPES = 'openid profile w_member_social w_organization_social r_organization_social rw_organization_admin';

const versionNow = () => {
  const d = new Date();
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

describe('LinkedIn', () => {
  let sb: RunningSandbox;
  let api: string;
  let token: string;
  let member: string;
  let bakery: string;
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'linkedin-version': versionNow(), 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json', ...extra });
  const rest = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${api}/rest${path}`, { method: init.method ?? 'GET', headers: headers(init.headers), ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  const sandboxUrl = (real: string) => real.replace('https://', `${sb.url}/`);
  const uploadImage = async (owner: string, bytes: Buffer = media.jpeg()) => {
    const init = (await (await rest('/images?action=initializeUpload', { method: 'POST', body: { initializeUploadRequest: { owner } } })).json()) as { value: { uploadUrl: string; image: string } };
    const put = await fetch(sandboxUrl(init.value.uploadUrl), { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(put.status, 201);
    return init.value.image;
  };
  const createPost = (body: Record<string, unknown>) =>
    rest('/posts', { method: 'POST', body: { visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] }, lifecycleState: 'PUBLISHED', ...body } });

  before(async () => {
    sb = await sandbox();
    api = `${sb.url}/api.linkedin.com`;
    const authorize = `${sb.url}/www.linkedin.com/oauth/v2/authorization?response_type=code&client_id=${APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s1&scope=${encodeURIComponent(SCOPES)}`;
    const page = await openConsent(authorize);
    assert.match(page.html, /Sandbox Member \(administers Sandbox Bakery, Sandbox Books\)/);
    const location = await consent(authorize);
    assert.equal(location.searchParams.get('state'), 's1');
    const res = await fetch(`${sb.url}/www.linkedin.com/oauth/v2/accessToken`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: REDIRECT, client_id: APP, client_secret: SECRET }),
    });
    const body = (await res.json()) as { access_token: string; expires_in: number; scope: string; refresh_token?: string };
    assert.equal(body.expires_in, 5_184_000);
    assert.equal(body.refresh_token, undefined, 'no refresh token for apps not approved for it');
    token = body.access_token;
    const me = (await (await fetch(`${api}/v2/userinfo`, { headers: { authorization: `Bearer ${token}` } })).json()) as { sub: string; name: string };
    assert.equal(me.name, 'Sandbox Member');
    member = `urn:li:person:${me.sub}`;
  });
  after(() => sb.close());

  test('organizationAcls lists the organizations; organizations give their names', async () => {
    const acls = (await (await rest('/organizationAcls?q=roleAssignee&state=APPROVED')).json()) as { elements: Array<{ organization: string; role: string }> };
    assert.equal(acls.elements.length, 2);
    assert.ok(acls.elements.every((e) => e.role === 'ADMINISTRATOR'));
    bakery = acls.elements[0]?.organization ?? '';
    const org = (await (await rest(`/organizations/${bakery.split(':').pop() ?? ''}`)).json()) as { localizedName: string };
    assert.equal(org.localizedName, 'Sandbox Bakery');
  });

  test('/rest needs LinkedIn-Version (400 without, 426 for an inactive one) and X-Restli-Protocol-Version', async () => {
    const noVersion = await fetch(`${api}/rest/posts`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(noVersion.status, 400);
    const old = await rest('/posts', { method: 'POST', body: {}, headers: { 'linkedin-version': '202001' } });
    assert.equal(old.status, 426);
    assert.deepEqual(await old.json(), { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 202001 is not active' });
    const noProtocol = await fetch(`${api}/rest/posts`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'linkedin-version': versionNow(), 'content-type': 'application/json' }, body: '{}' });
    assert.equal(noProtocol.status, 400);
    const journal = sb.state.journal.list({ host: 'api.linkedin.com', path: '/rest/posts' }).at(-1);
    assert.equal(journal?.headers['linkedin-version'], versionNow());
  });

  test('a text post: 201 with x-restli-id; an unescaped reserved character cuts the text; a duplicate is 422 naming the first', async () => {
    const ok = await createPost({ author: member, commentary: 'Fresh \\(warm\\) bread #bakery https://example.com/a_b(1)' });
    assert.equal(ok.status, 201);
    const urn = ok.headers.get('x-restli-id') ?? '';
    assert.match(urn, /^urn:li:share:\d+$/);
    const post = sb.state.linkedin.posts.get(urn);
    assert.equal(post?.shown, 'Fresh (warm) bread #bakery https://example.com/a_b(1)');
    assert.equal(post?.truncated, false);
    const cut = await createPost({ author: member, commentary: 'Before (after)' });
    assert.equal(sb.state.linkedin.posts.get(cut.headers.get('x-restli-id') ?? '')?.shown, 'Before ');
    const again = await createPost({ author: member, commentary: 'Fresh \\(warm\\) bread #bakery https://example.com/a_b(1)' });
    assert.equal(again.status, 422);
    const body = (await again.json()) as { message: string; errorDetails: { inputErrors: Array<{ code: string }> } };
    assert.equal(body.errorDetails.inputErrors[0]?.code, 'DUPLICATE_POST');
    assert.ok(body.message.endsWith(`duplicate of ${urn}`));
    assert.equal((await createPost({ author: member, commentary: '' })).status, 422);
    assert.equal((await createPost({ author: bakery, commentary: 'x', visibility: 'CONNECTIONS' })).status, 422);
  });

  test('images: the PUT refuses the bearer token; a post needs the owner’s AVAILABLE image; multi-image takes 2 to 20', async () => {
    const init = (await (await rest('/images?action=initializeUpload', { method: 'POST', body: { initializeUploadRequest: { owner: bakery } } })).json()) as { value: { uploadUrl: string; image: string } };
    const withToken = await fetch(sandboxUrl(init.value.uploadUrl), { method: 'PUT', body: media.jpeg(), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' } });
    assert.equal(withToken.status, 400);
    const notYet = await createPost({ author: bakery, commentary: 'pic', content: { media: { id: init.value.image } } });
    assert.equal(notYet.status, 422);
    const image = await uploadImage(bakery);
    assert.equal(((await (await rest(`/images/${encodeURIComponent(image)}`)).json()) as { status: string }).status, 'AVAILABLE');
    assert.equal((await createPost({ author: member, commentary: 'not mine', content: { media: { id: image } } })).status, 422);
    assert.equal((await createPost({ author: bakery, commentary: 'pic', content: { media: { id: image, altText: 'a loaf' } } })).status, 201);
    const second = await uploadImage(bakery, media.png());
    assert.equal((await createPost({ author: bakery, commentary: 'one', content: { multiImage: { images: [{ id: image }] } } })).status, 422);
    assert.equal((await createPost({ author: bakery, commentary: 'two', content: { multiImage: { images: [{ id: image }, { id: second }] } } })).status, 201);
  });

  test('videos: parts with ETags, finalize in order, then AVAILABLE', async () => {
    sb.state.updateSettings({ linkedin: { videoPartBytes: 64 } });
    const bytes = Buffer.concat([media.mp4(), Buffer.alloc(100, 1)]);
    const init = (await (await rest('/videos?action=initializeUpload', { method: 'POST', body: { initializeUploadRequest: { owner: bakery, fileSizeBytes: bytes.length, uploadCaptions: false, uploadThumbnail: false } } })).json()) as {
      value: { video: string; uploadToken: string; uploadInstructions: Array<{ uploadUrl: string; firstByte: number; lastByte: number }> };
    };
    assert.ok(init.value.uploadInstructions.length >= 2);
    const etags: string[] = [];
    for (const part of init.value.uploadInstructions) {
      const res = await fetch(sandboxUrl(part.uploadUrl), { method: 'PUT', body: bytes.subarray(part.firstByte, part.lastByte + 1), headers: { 'content-type': 'application/octet-stream' } });
      assert.equal(res.status, 200);
      etags.push(res.headers.get('etag') ?? '');
    }
    const wrong = await rest('/videos?action=finalizeUpload', { method: 'POST', body: { finalizeUploadRequest: { video: init.value.video, uploadToken: init.value.uploadToken, uploadedPartIds: [...etags].reverse() } } });
    assert.equal(wrong.status, 422);
    const done = await rest('/videos?action=finalizeUpload', { method: 'POST', body: { finalizeUploadRequest: { video: init.value.video, uploadToken: init.value.uploadToken, uploadedPartIds: etags } } });
    assert.equal(done.status, 200);
    assert.equal(((await (await rest(`/videos/${encodeURIComponent(init.value.video)}`)).json()) as { status: string }).status, 'PROCESSING');
    sb.state.clock.advance(2000);
    assert.equal((await createPost({ author: bakery, commentary: 'clip', content: { media: { id: init.value.video, title: 'Clip' } } })).status, 201);
  });

  test('documents need a title; articles a source and title', async () => {
    const init = (await (await rest('/documents?action=initializeUpload', { method: 'POST', body: { initializeUploadRequest: { owner: member } } })).json()) as { value: { uploadUrl: string; document: string } };
    await fetch(sandboxUrl(init.value.uploadUrl), { method: 'PUT', body: Buffer.from('%PDF-1.4 sandbox'), headers: { 'content-type': 'application/octet-stream' } });
    assert.equal((await createPost({ author: member, commentary: 'doc', content: { media: { id: init.value.document } } })).status, 422);
    assert.equal((await createPost({ author: member, commentary: 'doc', content: { media: { id: init.value.document, title: 'Menu' } } })).status, 201);
    assert.equal((await createPost({ author: member, commentary: 'link', content: { article: { source: 'https://example.com' } } })).status, 422);
    assert.equal((await createPost({ author: member, commentary: 'link', content: { article: { source: 'https://example.com', title: 'Example' } } })).status, 201);
  });

  test('organizations list their posts newest first; members’ posts need r_member_social; delete is idempotent; edit sets the commentary', async () => {
    const list = (await (await rest(`/posts?q=author&author=${encodeURIComponent(bakery)}&sortBy=CREATED&count=10`)).json()) as { elements: Array<{ id: string; createdAt: number }> };
    assert.ok(list.elements.length >= 3);
    assert.equal((await rest(`/posts?q=author&author=${encodeURIComponent(member)}`)).status, 403);
    const urn = list.elements[0]?.id ?? '';
    const edit = await rest(`/posts/${encodeURIComponent(urn)}`, { method: 'POST', headers: { 'x-restli-method': 'PARTIAL_UPDATE' }, body: { patch: { $set: { commentary: 'Edited' } } } });
    assert.equal(edit.status, 204);
    assert.equal(sb.state.linkedin.posts.get(urn)?.commentary, 'Edited');
    assert.equal((await rest(`/posts/${encodeURIComponent(urn)}`, { method: 'DELETE' })).status, 204);
    assert.equal((await rest(`/posts/${encodeURIComponent(urn)}`, { method: 'DELETE' })).status, 204);
    assert.equal((await rest(`/posts/${encodeURIComponent(urn)}`)).status, 404);
  });

  test('the daily cap answers 429 until 00:00 UTC', async () => {
    sb.state.updateSettings({ linkedin: { dailyPosts: 0 } });
    const res = await createPost({ author: member, commentary: 'one too many' });
    assert.equal(res.status, 429);
    sb.state.updateSettings({ linkedin: { dailyPosts: 150 } });
  });
});
