// The exported verification helper, checked against signatures made here with node:crypto.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { verifyWebhook } from '../src/sdk/verify-webhook.ts';

const secret = 'whsec_test';
const body = '{"id":"evt_1","event":"webhook.test","createdAt":"2026-01-01T00:00:00.000Z","data":{}}';
const now = 1_800_000_000_000;
const timestamp = String(now / 1000);
const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

describe('verifyWebhook', () => {
  test('accepts a genuine delivery', () => {
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature, now }), { ok: true });
    assert.deepEqual(verifyWebhook({ secret, body: Buffer.from(body), timestamp, signature, now: now + 299_000 }), { ok: true });
  });
  test('refuses a timestamp more than 300 seconds away', () => {
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature, now: now + 301_000 }), { ok: false, reason: 'stale_timestamp' });
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature, now: now - 301_000 }), { ok: false, reason: 'stale_timestamp' });
  });
  test('refuses a changed body, another secret, or a malformed signature', () => {
    assert.equal(verifyWebhook({ secret, body: body.replace('evt_1', 'evt_2'), timestamp, signature, now }).ok, false);
    assert.equal(verifyWebhook({ secret: 'whsec_other', body, timestamp, signature, now }).ok, false);
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature: signature.toUpperCase(), now }), { ok: false, reason: 'bad_signature' });
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature: 'abc', now }), { ok: false, reason: 'bad_signature' });
  });
  test('after a rotation, accepts the HMAC of its secret in either header, and nothing else', () => {
    // During the grace: X-SocialAPI-Signature is made with the new secret, -Previous with the old.
    const rotated = 'whsec_new';
    const fresh = createHmac('sha256', rotated).update(`${timestamp}.${body}`).digest('hex');
    const headers = { signature: fresh, previousSignature: signature };
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, ...headers, now }), { ok: true }, 'a receiver still on the old secret');
    assert.deepEqual(verifyWebhook({ secret: rotated, body, timestamp, ...headers, now }), { ok: true }, 'a receiver on the new secret');
    assert.deepEqual(verifyWebhook({ secret: 'whsec_other', body, timestamp, ...headers, now }), { ok: false, reason: 'bad_signature' });
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature: fresh, now }), { ok: false, reason: 'bad_signature' }, 'after the grace only the new one is sent');
    assert.deepEqual(verifyWebhook({ secret, body: body.replace('evt_1', 'evt_2'), timestamp, ...headers, now }), { ok: false, reason: 'bad_signature' });
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature: fresh, previousSignature: 'zz', now }), { ok: false, reason: 'bad_signature' });
  });
  test('refuses missing headers', () => {
    assert.deepEqual(verifyWebhook({ secret, body, timestamp: undefined, signature, now }), { ok: false, reason: 'missing_headers' });
    assert.deepEqual(verifyWebhook({ secret, body, timestamp, signature: undefined, now }), { ok: false, reason: 'missing_headers' });
  });
});
