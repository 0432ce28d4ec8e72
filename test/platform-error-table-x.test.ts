// Every row of x's error table (src/platforms/x/errors.ts; platforms/x.md §7): a parsed answer
// in, the PlatformError kind, code and retryable out. The expected kinds are written here, and
// each table's rows must be exactly the ones listed, so a new row needs its line here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PlatformError, type PlatformErrorKind } from '../src/platforms/errors.ts';
import type { PlatformResponse } from '../src/platforms/http.ts';
import { DUPLICATE_DETAIL, isDuplicate, PROBLEM_TYPES, STATUSES, TOKEN_ERRORS, xBody, xTokenBody } from '../src/platforms/x/errors.ts';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): PlatformResponse => ({ status, headers: new Headers(headers), body });

function thrown(run: () => unknown): PlatformError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  assert.fail('no PlatformError was thrown');
}

describe('x error table', () => {
  test('problem types', () => {
    const expected: Record<string, PlatformErrorKind> = {
      'invalid-request': 'invalid',
      'client-forbidden': 'permission',
      'not-authorized-for-resource': 'invalid',
      'resource-not-found': 'invalid',
      'rate-limit-exceeded': 'rate_limited',
      'usage-capped': 'rate_limited',
      'unsupported-authentication': 'auth',
    };
    assert.deepEqual(Object.keys(PROBLEM_TYPES).sort(), Object.keys(expected).sort());
    for (const [type, kind] of Object.entries(expected)) {
      const error = thrown(() => xBody(answer(type === 'client-forbidden' ? 403 : 400, { type: `https://api.x.com/2/problems/${type}`, title: 'T', detail: 'D' })));
      assert.equal(error.kind, kind, type);
      assert.equal(error.details.code, type);
    }
  });

  test('statuses without a type; 5xx transient; other 4xx permanent', () => {
    const expected: Record<number, PlatformErrorKind> = { 400: 'invalid', 401: 'auth', 403: 'permission', 404: 'invalid', 429: 'rate_limited' };
    assert.deepEqual(Object.keys(STATUSES).sort(), Object.keys(expected).sort());
    for (const [status, kind] of Object.entries(expected)) assert.equal(thrown(() => xBody(answer(Number(status), { type: 'about:blank', title: 'T' }))).kind, kind, status);
    assert.equal(thrown(() => xBody(answer(503, {}))).kind, 'transient');
    assert.equal(thrown(() => xBody(answer(409, {}))).kind, 'permanent');
  });

  test('the duplicate detail, whole; a 429 waits for x-rate-limit-reset', () => {
    const duplicate = thrown(() => xBody(answer(403, { type: 'about:blank', title: 'Forbidden', detail: DUPLICATE_DETAIL })));
    assert.deepEqual([duplicate.kind, isDuplicate(duplicate)], ['invalid', true]);
    assert.equal(isDuplicate(thrown(() => xBody(answer(403, { detail: `${DUPLICATE_DETAIL} More.` })))), false);
    const now = 1_800_000_000_000;
    const limited = thrown(() => xBody(answer(429, { title: 'Too Many Requests' }, { 'x-rate-limit-reset': String(now / 1000 + 600) }), now));
    assert.deepEqual([limited.kind, limited.retryable, limited.details.retryAfterMs], ['rate_limited', true, 600_000]);
    const named = thrown(() => xBody(answer(400, { type: 'https://api.x.com/2/problems/invalid-request', detail: 'One or more parameters to your request was invalid.', errors: [{ parameters: { text: [] }, message: 'too long' }] })));
    assert.equal(named.message, 'One or more parameters to your request was invalid.; too long (text)');
  });

  test('token endpoint names', () => {
    const expected: Record<string, PlatformErrorKind> = {
      invalid_grant: 'auth',
      invalid_request: 'auth',
      invalid_client: 'permanent',
      unauthorized_client: 'permanent',
      unsupported_grant_type: 'permanent',
      invalid_scope: 'invalid',
    };
    assert.deepEqual(Object.keys(TOKEN_ERRORS).sort(), Object.keys(expected).sort());
    for (const [code, kind] of Object.entries(expected)) assert.equal(thrown(() => xTokenBody(answer(400, { error: code, error_description: 'x' }))).kind, kind, code);
    // A refused client (HTTP 401) is our configuration, never the person's grant.
    assert.equal(thrown(() => xTokenBody(answer(401, { error: 'invalid_client' }))).kind, 'permanent');
    assert.equal(thrown(() => xTokenBody(answer(502, {}))).kind, 'transient');
    assert.equal(xTokenBody(answer(200, { access_token: 'a', token_type: 'bearer' })).access_token, 'a');
  });
});
