// Bluesky against the sandbox (platforms/bluesky.md §1, §2, §4, §6, §7): handles, DIDs and the
// PLC directory; app-password sessions (the main password's 2FA answer, wrong passwords, the
// createSession limit, JWT-shaped tokens, expiry, refresh with its grace, deleteSession, a revoked
// app password, a takedown); records (TID keys, the 500 of a taken key, the caller's repo only,
// every lexicon refusal of a post naming its field, gates, likes, getRecord/deleteRecord/
// listRecords) and the record-write points.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { jpeg, largePng, mp4, png } from '../fixtures/media.ts';
import { APP_PASSWORD, at, control, HANDLE, now, signIn, str, xrpc, type Answer, type Session } from './bluesky-helpers.ts';
import { sandbox } from './helpers.ts';

const POST = 'app.bsky.feed.post';
const payloadOf = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
const rkeyOf = (uri: string): string => uri.split('/').at(-1) ?? '';

describe('bluesky sessions and records', () => {
  let sb: RunningSandbox;
  let pds: ReturnType<typeof xrpc>;
  let session: Session;

  const create = (record: Record<string, unknown>, extra: Record<string, unknown> = {}, token = session.accessJwt): Promise<Answer> =>
    pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: POST, record: { $type: POST, createdAt: now(sb), ...record }, ...extra }, token);
  const refused = (res: Answer, error: string, message: RegExp | string, status = 400) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.error, error, JSON.stringify(res.body));
    if (typeof message === 'string') assert.equal(res.body.message, message);
    else assert.match(String(res.body.message), message);
  };
  const upload = async (bytes: Buffer, type: string, token = session.accessJwt) => {
    const res = await pds.bytes('com.atproto.repo.uploadBlob', bytes, type, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.blob as Record<string, unknown>;
  };

  before(async () => {
    sb = await sandbox();
    pds = xrpc(sb);
    session = await signIn(sb);
  });
  after(() => sb.close());

  test('resolveHandle and plc.directory: the DID document names the handle and bsky.social as the PDS', async () => {
    const resolved = await pds.get('com.atproto.identity.resolveHandle', { handle: HANDLE });
    assert.equal(resolved.status, 200);
    assert.equal(resolved.body.did, session.did);
    assert.match(session.did, /^did:plc:[a-z2-7]{24}$/);
    refused(await pds.get('com.atproto.identity.resolveHandle', { handle: 'nobody.bsky.social' }), 'InvalidRequest', 'Unable to resolve handle');
    const doc = await fetch(`${sb.url}/plc.directory/${session.did}`);
    const body = (await doc.json()) as Record<string, unknown>;
    assert.equal(doc.status, 200);
    assert.equal(body.id, session.did);
    assert.deepEqual(body.alsoKnownAs, [`at://${HANDLE}`]);
    assert.deepEqual(at(body, 'service.0'), { id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://bsky.social' });
    const unknown = await fetch(`${sb.url}/plc.directory/did:plc:aaaaaaaaaaaaaaaaaaaaaaaa`);
    assert.equal(unknown.status, 404);
    assert.match(String(((await unknown.json()) as Record<string, unknown>).message), /DID not registered/);
  });

  test('createSession: the app password by handle, DID or email; JWT-shaped tokens of 2 hours and 90 days', async () => {
    const res = await pds.post('com.atproto.server.createSession', { identifier: HANDLE, password: APP_PASSWORD });
    assert.equal(res.status, 200);
    assert.equal(res.body.handle, HANDLE);
    assert.equal(res.body.email, 'sandbox@sandbox.invalid');
    assert.equal(res.body.emailConfirmed, true);
    assert.equal(res.body.active, true);
    assert.ok(res.headers.get('ratelimit-limit'), 'rate-limit headers on every answer');
    const access = payloadOf(str(res.body, 'accessJwt'));
    assert.equal(access.scope, 'com.atproto.appPass');
    assert.equal(access.sub, session.did);
    assert.equal(access.aud, 'did:web:bsky.social');
    assert.equal(Number(access.exp) - Number(access.iat), 7200);
    const refresh = payloadOf(str(res.body, 'refreshJwt'));
    assert.equal(Number(refresh.exp) - Number(refresh.iat), 90 * 86400);
    const header = JSON.parse(Buffer.from(str(res.body, 'accessJwt').split('.')[0] ?? '', 'base64url').toString()) as Record<string, unknown>;
    assert.equal(header.typ, 'at+jwt');
    assert.equal((await pds.post('com.atproto.server.createSession', { identifier: session.did, password: APP_PASSWORD })).status, 200);
    assert.equal((await pds.post('com.atproto.server.createSession', { identifier: 'SANDBOX@sandbox.invalid', password: APP_PASSWORD })).status, 200);
  });

  test('createSession refusals: the main password of an email-2FA account, a wrong password, an unknown account; a main password without 2FA is com.atproto.access', async () => {
    refused(await pds.post('com.atproto.server.createSession', { identifier: HANDLE, password: 'sandbox-main-password' }), 'AuthFactorTokenRequired', /sign in code/, 401);
    refused(await pds.post('com.atproto.server.createSession', { identifier: HANDLE, password: 'wrong-pass-word-0000' }), 'AuthenticationRequired', 'Invalid identifier or password', 401);
    refused(await pds.post('com.atproto.server.createSession', { identifier: 'nobody.bsky.social', password: APP_PASSWORD }), 'AuthenticationRequired', 'Invalid identifier or password', 401);
    refused(await pds.post('com.atproto.server.createSession', { identifier: HANDLE }), 'InvalidRequest', /password/);
    // Without email 2FA the main password signs in, with the scope that tells it from an app password.
    const main = await pds.post('com.atproto.server.createSession', { identifier: 'friend.bsky.social', password: 'friend-main-password' });
    assert.equal(main.status, 200);
    assert.equal(payloadOf(str(main.body, 'accessJwt')).scope, 'com.atproto.access');
    assert.equal((await pds.get('com.atproto.server.getSession', {}, str(main.body, 'accessJwt'))).status, 200);
  });

  test('createSession: 30 in 5 minutes per account, then 429 RateLimitExceeded with the ratelimit-* headers', async () => {
    for (let i = 0; i < 30; i++) assert.equal((await pds.post('com.atproto.server.createSession', { identifier: 'reader.bsky.social', password: 'nope' })).status, 401);
    const limited = await pds.post('com.atproto.server.createSession', { identifier: 'reader.bsky.social', password: 'nope' });
    refused(limited, 'RateLimitExceeded', 'Rate Limit Exceeded', 429);
    assert.equal(limited.headers.get('ratelimit-limit'), '30');
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    assert.equal(limited.headers.get('ratelimit-policy'), '30;w=300');
    assert.ok(Number(limited.headers.get('ratelimit-reset')) * 1000 > sb.state.clock.now());
    // Another account is not limited; the window ends after 5 minutes.
    assert.equal((await pds.post('com.atproto.server.createSession', { identifier: 'friend.bsky.social', password: 'nope' })).status, 401);
    sb.state.clock.advance(300_000);
    assert.equal((await pds.post('com.atproto.server.createSession', { identifier: 'reader.bsky.social', password: 'nope' })).status, 401);
  });

  test('access tokens: getSession; missing 401 AuthMissing; garbled or a refresh token 400 InvalidToken; after 2 hours 400 ExpiredToken', async () => {
    const mine = await signIn(sb);
    const ok = await pds.get('com.atproto.server.getSession', {}, mine.accessJwt);
    assert.equal(ok.status, 200);
    assert.deepEqual([ok.body.handle, ok.body.did, ok.body.active], [HANDLE, mine.did, true]);
    refused(await pds.get('com.atproto.server.getSession'), 'AuthMissing', 'Authentication Required', 401);
    refused(await pds.get('com.atproto.server.getSession', {}, `${mine.accessJwt.slice(0, -2)}xx`), 'InvalidToken', 'Token could not be verified');
    refused(await pds.get('com.atproto.server.getSession', {}, mine.refreshJwt), 'InvalidToken', 'Bad token scope');
    sb.state.clock.advance(7200_000);
    refused(await pds.get('com.atproto.server.getSession', {}, mine.accessJwt), 'ExpiredToken', 'Token has expired');
    session = await signIn(sb);
  });

  test('refreshSession: a new pair; the used refresh token gives the same successor for 2 hours, then 400 ExpiredToken', async () => {
    const mine = await signIn(sb);
    const first = await pds.post('com.atproto.server.refreshSession', undefined, mine.refreshJwt);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.notEqual(first.body.refreshJwt, mine.refreshJwt);
    assert.equal((await pds.get('com.atproto.server.getSession', {}, str(first.body, 'accessJwt'))).status, 200);
    const again = await pds.post('com.atproto.server.refreshSession', undefined, mine.refreshJwt);
    assert.equal(again.status, 200);
    assert.equal(payloadOf(str(again.body, 'refreshJwt')).jti, payloadOf(str(first.body, 'refreshJwt')).jti, 'within the grace: the same successor');
    sb.state.clock.advance(7200_000 + 1000);
    refused(await pds.post('com.atproto.server.refreshSession', undefined, mine.refreshJwt), 'ExpiredToken', 'Token has been revoked');
    const next = await pds.post('com.atproto.server.refreshSession', undefined, str(first.body, 'refreshJwt'));
    assert.equal(next.status, 200, 'the successor still works');
    refused(await pds.post('com.atproto.server.refreshSession', undefined, str(next.body, 'accessJwt')), 'InvalidToken', 'Bad token scope');
    session = await signIn(sb);
  });

  test('deleteSession ends the session: its refresh token ExpiredToken, its access token InvalidToken', async () => {
    const mine = await signIn(sb);
    const deleted = await pds.post('com.atproto.server.deleteSession', undefined, mine.refreshJwt);
    assert.equal(deleted.status, 200);
    refused(await pds.post('com.atproto.server.refreshSession', undefined, mine.refreshJwt), 'ExpiredToken', 'Token has been revoked');
    refused(await pds.get('com.atproto.server.getSession', {}, mine.accessJwt), 'InvalidToken', 'Token has been revoked');
  });

  test('control: a revoked app password ends its sessions and signs in no more; a takedown answers AccountTakedown', async () => {
    const seeded = await control(sb, 'seed', { bluesky: [{ handle: 'victim.bsky.social', appPassword: 'vict-im00-pass-0000' }] });
    assert.equal(seeded.status, 200);
    assert.equal(at(seeded.body, 'bluesky.0.handle'), 'victim.bsky.social');
    const people = await control(sb, 'people');
    assert.ok((people.body.bluesky as Array<{ handle: string }>).some((p) => p.handle === 'victim.bsky.social'));
    const victim = await signIn(sb, 'victim.bsky.social', 'vict-im00-pass-0000');
    const revoked = await control(sb, 'bluesky/app-passwords/revoke', { actor: 'victim.bsky.social' });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.sessionsEnded, 1);
    refused(await pds.post('com.atproto.server.refreshSession', undefined, victim.refreshJwt), 'ExpiredToken', 'Token has been revoked');
    refused(await pds.post('com.atproto.server.createSession', { identifier: 'victim.bsky.social', password: 'vict-im00-pass-0000' }), 'AuthenticationRequired', 'Invalid identifier or password', 401);

    const friend = await signIn(sb, 'friend.bsky.social', 'frie-app0-pass-0000');
    assert.equal((await control(sb, 'bluesky/account', { actor: 'friend.bsky.social', takenDown: true })).status, 200);
    refused(await pds.get('com.atproto.server.getSession', {}, friend.accessJwt), 'AccountTakedown', 'Account has been taken down', 401);
    refused(await pds.post('com.atproto.server.refreshSession', undefined, friend.refreshJwt), 'AccountTakedown', 'Account has been taken down', 401);
    refused(await pds.post('com.atproto.server.createSession', { identifier: 'friend.bsky.social', password: 'frie-app0-pass-0000' }), 'AccountTakedown', 'Account has been taken down', 401);
    await control(sb, 'bluesky/account', { actor: 'friend.bsky.social', takenDown: false });
    assert.equal((await pds.get('com.atproto.server.getSession', {}, friend.accessJwt)).status, 200);
  });

  test('createRecord: the PDS makes a TID key; at:// uri, cid, commit and validationStatus; getRecord reads it back', async () => {
    const res = await create({ text: 'Hello from the sandbox' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const uri = str(res.body, 'uri');
    assert.match(uri, new RegExp(`^at://${session.did}/app\\.bsky\\.feed\\.post/[234567abcdefghij][2-7a-z]{12}$`));
    assert.match(str(res.body, 'cid'), /^bafyrei[a-z2-7]{52}$/);
    assert.match(str(res.body, 'commit.cid'), /^bafyrei/);
    assert.match(str(res.body, 'commit.rev'), /^[2-7a-z]{13}$/);
    assert.equal(res.body.validationStatus, 'valid');
    assert.equal(res.headers.get('ratelimit-policy'), '5000;w=3600');
    const read = await pds.get('com.atproto.repo.getRecord', { repo: HANDLE, collection: POST, rkey: rkeyOf(uri) });
    assert.equal(read.status, 200);
    assert.deepEqual([read.body.uri, read.body.cid, at(read.body, 'value.text')], [uri, res.body.cid, 'Hello from the sandbox']);
    refused(await pds.get('com.atproto.repo.getRecord', { repo: session.did, collection: POST, rkey: '3jzfcijpj2z2a' }), 'RecordNotFound', /Could not locate record/);
    const later = await create({ text: 'Later' });
    assert.ok(rkeyOf(str(later.body, 'uri')) > rkeyOf(uri), 'TIDs sort in time');
  });

  test('rkeys: a TID for posts and likes; a taken key answers 500 InternalServerError, as the PDS does today', async () => {
    refused(await create({ text: 'x' }, { rkey: 'not-a-tid' }), 'InvalidRequest', /not a TID/);
    refused(await create({ text: 'x' }, { rkey: 'kjzfcijpj2z2a' }), 'InvalidRequest', /not a TID/);
    const first = await create({ text: 'chosen key' }, { rkey: '3jzfcijpj2z2a' });
    assert.equal(first.status, 200);
    assert.equal(first.body.uri, `at://${session.did}/${POST}/3jzfcijpj2z2a`);
    const again = await create({ text: 'chosen key' }, { rkey: '3jzfcijpj2z2a' });
    assert.equal(again.status, 500);
    assert.deepEqual(again.body, { error: 'InternalServerError', message: 'Internal Server Error' });
    const like = await pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: 'app.bsky.feed.like', rkey: 'self', record: { $type: 'app.bsky.feed.like', subject: { uri: first.body.uri, cid: first.body.cid }, createdAt: now(sb) } }, session.accessJwt);
    refused(like, 'InvalidRequest', /not a TID/);
    const other = await pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: 'com.example.note', rkey: 'self', record: { $type: 'com.example.note', n: 1 } }, session.accessJwt);
    assert.equal(other.status, 200);
    assert.equal(other.body.validationStatus, 'unknown');
  });

  test("the repo is the caller's: unknown 400 Could not find repo, someone else's 401", async () => {
    refused(await create({ text: 'x' }, { repo: 'nobody.bsky.social' }), 'InvalidRequest', 'Could not find repo: nobody.bsky.social');
    refused(await create({ text: 'x' }, { repo: 'reader.bsky.social' }), 'AuthenticationRequired', 'Authentication Required', 401);
    assert.equal((await create({ text: 'by handle' }, { repo: HANDLE })).status, 200);
    refused(await pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: POST, record: { text: 'x' } }), 'AuthMissing', 'Authentication Required', 401);
  });

  test('post rules: each refusal is 400 InvalidRequest naming the field', async () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'; // one grapheme, 18 bytes
    const parent = await create({ text: 'parent' });
    const ref = { uri: parent.body.uri, cid: parent.body.cid };
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['no $type', { $type: undefined, text: 'x' }, /Record\/\$type must be a string/],
      ['no createdAt', { createdAt: undefined, text: 'x' }, /Record must have the property "createdAt"/],
      ['bad createdAt', { createdAt: 'yesterday', text: 'x' }, /Record\/createdAt must be an valid atproto datetime/],
      ['no text', { text: undefined }, /Record must have the property "text"/],
      ['301 graphemes', { text: 'a'.repeat(301) }, /Record\/text must not be longer than 300 graphemes/],
      ['3000 bytes', { text: family.repeat(200) }, /Record\/text must not be longer than 3000 characters/],
      ['4 langs', { text: 'x', langs: ['en', 'fr', 'de', 'es'] }, /Record\/langs must not have more than 3 elements/],
      ['facet past the text', { text: 'hi', facets: [{ index: { byteStart: 0, byteEnd: 3 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'hi' }] }] }, /Record\/facets\/0\/index\/byteEnd 3 is past the end/],
      ['facet inside a character', { text: 'é #tag', facets: [{ index: { byteStart: 1, byteEnd: 7 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'tag' }] }] }, /Record\/facets\/0\/index .*character boundaries/],
      ['facet start after end', { text: 'hello', facets: [{ index: { byteStart: 3, byteEnd: 3 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'x' }] }] }, /Record\/facets\/0\/index byteStart 3 must be before byteEnd 3/],
      ['unknown feature', { text: 'hello', facets: [{ index: { byteStart: 0, byteEnd: 5 }, features: [{ $type: 'app.bsky.richtext.facet#bold' }] }] }, /Record\/facets\/0\/features\/0 must be an object which includes the "\$type" property/],
      ['mention without a did', { text: '@someone', facets: [{ index: { byteStart: 0, byteEnd: 8 }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'someone' }] }] }, /Record\/facets\/0\/features\/0\/did must be a valid did/],
      ['link without a uri', { text: 'link', facets: [{ index: { byteStart: 0, byteEnd: 4 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'not a uri' }] }] }, /Record\/facets\/0\/features\/0\/uri must be a uri/],
      ['reply to nothing', { text: 'x', reply: { root: ref, parent: { uri: `at://${session.did}/${POST}/3aaaaaaaaaaaa`, cid: ref.cid } } }, /Record\/reply\/parent\/uri names no app\.bsky\.feed\.post/],
      ['reply with the wrong cid', { text: 'x', reply: { root: ref, parent: { uri: ref.uri, cid: 'bafyreiwrong' } } }, /Record\/reply\/parent\/cid is not the cid/],
      ['reply without a root', { text: 'x', reply: { parent: ref } }, /Record\/reply must have the property "root"/],
      ['quote of nothing', { text: 'x', embed: { $type: 'app.bsky.embed.record', record: { uri: `at://${session.did}/${POST}/3aaaaaaaaaaaa`, cid: ref.cid } } }, /Record\/embed\/record\/uri names no/],
      ['external without a title', { text: 'x', embed: { $type: 'app.bsky.embed.external', external: { uri: 'https://example.com', description: '' } } }, /Record\/embed\/external must have the property "title"/],
      ['unknown embed', { text: 'x', embed: { $type: 'app.bsky.embed.gallery' } }, /Record\/embed must be an object which includes the "\$type" property/],
      ['bad self-label', { text: 'x', labels: { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'spicy' }] } }, /Record\/labels\/values\/0\/val must be one of sexual, nudity, porn, graphic-media/],
    ];
    for (const [name, record, message] of cases) {
      const res = await create(record);
      assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, 'InvalidRequest', name);
      assert.match(String(res.body.message), /^Invalid app\.bsky\.feed\.post record: /, name);
      assert.match(String(res.body.message), message, name);
    }
    refused(await create({ $type: 'app.bsky.feed.like', text: 'x' }), 'InvalidRequest', 'Invalid $type: expected app.bsky.feed.post, got app.bsky.feed.like');
  });

  test('post rules: what passes (300 graphemes, facets on UTF-8 byte offsets, reply, quote, external, self-labels)', async () => {
    const parent = await create({ text: 'parent' });
    const ref = { uri: parent.body.uri, cid: parent.body.cid };
    assert.equal((await create({ text: 'é'.repeat(300) })).status, 200);
    const text = '🙂 #sandbox https://example.com';
    const tagStart = Buffer.byteLength('🙂 ');
    const linkStart = Buffer.byteLength('🙂 #sandbox ');
    const facets = [
      { index: { byteStart: tagStart, byteEnd: tagStart + 8 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'sandbox' }] },
      { index: { byteStart: linkStart, byteEnd: Buffer.byteLength(text) }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com' }] },
    ];
    assert.equal((await create({ text, facets, langs: ['en', 'pt-BR'] })).status, 200);
    assert.equal((await create({ text: 'reply', reply: { root: ref, parent: ref } })).status, 200);
    assert.equal((await create({ text: 'quote', embed: { $type: 'app.bsky.embed.record', record: ref } })).status, 200);
    assert.equal((await create({ text: 'card', embed: { $type: 'app.bsky.embed.external', external: { uri: 'https://example.com', title: 'Example', description: '' } } })).status, 200);
    assert.equal((await create({ text: 'nsfw', labels: { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'graphic-media' }] } })).status, 200);
  });

  test('image embeds: 1–4 images with alt; the blob must be this repo\'s, image/*, the uploaded size and ≤ 1,000,000 bytes', async () => {
    const image = await upload(png(), 'image/png');
    const images = (n: number, extra: Record<string, unknown> = {}) => ({ $type: 'app.bsky.embed.images', images: Array.from({ length: n }, () => ({ image, alt: '', ...extra })) });
    const ok = await create({ text: 'pictures', embed: images(4, { aspectRatio: { width: 4, height: 3 } }) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.match(String((await create({ text: 'x', embed: images(5) })).body.message), /Record\/embed\/images must not have more than 4 elements/);
    assert.match(String((await create({ text: 'x', embed: images(0) })).body.message), /Record\/embed\/images must not have fewer than 1 elements/);
    assert.match(String((await create({ text: 'x', embed: { $type: 'app.bsky.embed.images', images: [{ image }] } })).body.message), /Record\/embed\/images\/0 must have the property "alt"/);
    const theirs = await signIn(sb, 'reader.bsky.social', 'read-app0-pass-0000');
    const foreign = await upload(jpeg(), 'image/jpeg', theirs.accessJwt);
    refused(await create({ text: 'x', embed: { $type: 'app.bsky.embed.images', images: [{ image: foreign, alt: '' }] } }), 'BlobNotFound', `Could not find blob: ${String(at(foreign, 'ref.$link'))}`);
    refused(await create({ text: 'x', embed: { $type: 'app.bsky.embed.images', images: [{ image: { ...image, size: 5 }, alt: '' }] } }), 'InvalidSize', /Referenced Size does not match stored blob/);
    const big = await upload(largePng(1_000_001), 'image/png');
    refused(await create({ text: 'x', embed: { $type: 'app.bsky.embed.images', images: [{ image: big, alt: '' }] } }), 'BlobTooLarge', /^This file is too large\. It is 976\.56KB but the maximum size is 976\.56KB\.$/);
    const huge = await upload(largePng(1_500_000), 'image/png');
    refused(await create({ text: 'x', embed: { $type: 'app.bsky.embed.images', images: [{ image: huge, alt: '' }] } }), 'BlobTooLarge', 'This file is too large. It is 1.43MB but the maximum size is 976.56KB.');
    const video = await upload(mp4(), 'video/mp4');
    refused(await create({ text: 'x', embed: { $type: 'app.bsky.embed.images', images: [{ image: video, alt: '' }] } }), 'InvalidMimeType', /image\/\*/);
    refused(await create({ text: 'x', embed: { $type: 'app.bsky.embed.external', external: { uri: 'https://example.com', title: 't', description: 'd', thumb: big } } }), 'BlobTooLarge', /too large/);
  });

  test('threadgates and postgates take their post\'s rkey; putRecord updates the gate; likes need an existing subject and replace an earlier like', async () => {
    const post = await create({ text: 'gated' });
    const uri = str(post.body, 'uri');
    const rkey = rkeyOf(uri);
    const gate = (key: string, record: Record<string, unknown> = {}) =>
      pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: 'app.bsky.feed.threadgate', rkey: key, record: { $type: 'app.bsky.feed.threadgate', post: `at://${session.did}/${POST}/${key}`, allow: [], createdAt: now(sb), ...record } }, session.accessJwt);
    refused(await gate('3aaaaaaaaaaaa'), 'InvalidRequest', /Record\/post names no post of this repository/);
    refused(await gate(rkey, { post: `at://${session.did}/${POST}/3aaaaaaaaaaaa` }), 'InvalidRequest', /Record\/post must be the post of this record's key/);
    refused(await gate(rkey, { allow: [{ $type: 'app.bsky.feed.threadgate#everybodyRule' }] }), 'InvalidRequest', /Record\/allow\/0 must be an object/);
    assert.equal((await gate(rkey)).status, 200);
    const put = await pds.post('com.atproto.repo.putRecord', { repo: session.did, collection: 'app.bsky.feed.threadgate', rkey, record: { $type: 'app.bsky.feed.threadgate', post: uri, allow: [{ $type: 'app.bsky.feed.threadgate#mentionRule' }], hiddenReplies: [], createdAt: now(sb) } }, session.accessJwt);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const read = await pds.get('com.atproto.repo.getRecord', { repo: session.did, collection: 'app.bsky.feed.threadgate', rkey });
    assert.deepEqual(at(read.body, 'value.allow'), [{ $type: 'app.bsky.feed.threadgate#mentionRule' }]);
    const postgate = await pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: 'app.bsky.feed.postgate', rkey, record: { $type: 'app.bsky.feed.postgate', post: uri, embeddingRules: [{ $type: 'app.bsky.feed.postgate#disableRule' }], createdAt: now(sb) } }, session.accessJwt);
    assert.equal(postgate.status, 200, JSON.stringify(postgate.body));

    const like = (subject: Record<string, unknown>) => pds.post('com.atproto.repo.createRecord', { repo: session.did, collection: 'app.bsky.feed.like', record: { $type: 'app.bsky.feed.like', subject, createdAt: now(sb) } }, session.accessJwt);
    refused(await like({ uri: `at://${session.did}/${POST}/3aaaaaaaaaaaa`, cid: post.body.cid }), 'InvalidRequest', /Invalid app\.bsky\.feed\.like record: Record\/subject\/uri names no record/);
    refused(await like({ uri }), 'InvalidRequest', /Record\/subject must have the property "cid"/);
    const first = await like({ uri, cid: post.body.cid });
    const second = await like({ uri, cid: post.body.cid });
    assert.equal(second.status, 200);
    refused(await pds.get('com.atproto.repo.getRecord', { repo: session.did, collection: 'app.bsky.feed.like', rkey: rkeyOf(str(first.body, 'uri')) }), 'RecordNotFound', /Could not locate/);
  });

  test('deleteRecord is idempotent; listRecords pages newest first', async () => {
    const made = await create({ text: 'short-lived' });
    const rkey = rkeyOf(str(made.body, 'uri'));
    const del = () => pds.post('com.atproto.repo.deleteRecord', { repo: session.did, collection: POST, rkey }, session.accessJwt);
    const first = await del();
    assert.equal(first.status, 200);
    assert.match(str(first.body, 'commit.rev'), /^[2-7a-z]{13}$/);
    assert.equal((await del()).status, 200, 'deleting again is fine');
    refused(await pds.get('com.atproto.repo.getRecord', { repo: session.did, collection: POST, rkey }), 'RecordNotFound', /Could not locate/);
    const page = await pds.get('com.atproto.repo.listRecords', { repo: session.did, collection: POST, limit: '2' });
    assert.equal(page.status, 200);
    const records = page.body.records as Array<{ uri: string }>;
    assert.equal(records.length, 2);
    assert.ok(rkeyOf(records[0]?.uri ?? '') > rkeyOf(records[1]?.uri ?? ''));
    const next = await pds.get('com.atproto.repo.listRecords', { repo: session.did, collection: POST, limit: '2', cursor: str(page.body, 'cursor') });
    assert.ok(rkeyOf(str(next.body, 'records.0.uri')) < rkeyOf(records[1]?.uri ?? ''));
  });

  test('record-write points per DID: create 3, delete 1; over the hour\'s points 429 RateLimitExceeded until ratelimit-reset', async () => {
    await fetch(`${sb.url}/_sandbox/settings`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bluesky: { writePointsPerHour: 10 } }) });
    sb.state.clock.advance(3600_000);
    session = await signIn(sb);
    for (let i = 0; i < 3; i++) assert.equal((await create({ text: `n${i}` })).status, 200);
    const limited = await create({ text: 'one too many' });
    refused(limited, 'RateLimitExceeded', 'Rate Limit Exceeded', 429);
    assert.equal(limited.headers.get('ratelimit-limit'), '10');
    assert.equal(limited.headers.get('ratelimit-policy'), '10;w=3600');
    const del = await pds.post('com.atproto.repo.deleteRecord', { repo: session.did, collection: POST, rkey: '3jzfcijpj2z2a' }, session.accessJwt);
    assert.equal(del.status, 200, 'a delete costs 1 point, which is left');
    assert.equal(del.headers.get('ratelimit-remaining'), '0');
    sb.state.clock.advance(3600_000);
    session = await signIn(sb);
    assert.equal((await create({ text: 'after the window' })).status, 200);
  });

  test('every PDS answer carries the client window; past its requests, 429 RateLimitExceeded', async () => {
    sb.state.clock.advance(300_000);
    sb.state.updateSettings({ bluesky: { requestsPer5Min: 3 } });
    const first = await pds.get('app.bsky.actor.getProfile', { actor: HANDLE }, session.accessJwt);
    assert.equal(first.status, 200);
    assert.deepEqual([first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining'), first.headers.get('ratelimit-policy')], ['3', '2', '3;w=300']);
    await pds.get('com.atproto.repo.getRecord', { repo: HANDLE, collection: POST, rkey: '3jzfcijpj2z2a' });
    await pds.get('com.atproto.identity.resolveHandle', { handle: HANDLE });
    const limited = await pds.get('com.atproto.server.getSession', {}, session.accessJwt);
    refused(limited, 'RateLimitExceeded', 'Rate Limit Exceeded', 429);
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    sb.state.updateSettings({ bluesky: { requestsPer5Min: 3000 } });
  });
});
