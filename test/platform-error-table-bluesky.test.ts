// Every row of bluesky's error table (src/platforms/bluesky/xrpc.ts; platforms/bluesky.md §8): an
// XRPC answer in, the PlatformError kind, code and retryable out; a 429 waits until its
// `ratelimit-reset`. Each table's rows must be exactly the ones listed here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PlatformError, type PlatformErrorKind } from '../src/platforms/errors.ts';
import type { PlatformResponse } from '../src/platforms/http.ts';
import { blueskyBody, XRPC_ERRORS, XRPC_STATUSES } from '../src/platforms/bluesky/xrpc.ts';

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

describe('bluesky error table', () => {
  test('error names', () => {
    const expected: Record<string, PlatformErrorKind> = {
      AuthenticationRequired: 'auth',
      AuthMissing: 'auth',
      InvalidToken: 'auth',
      AccountTakedown: 'auth',
      ExpiredToken: 'transient',
      InvalidRequest: 'invalid',
      RecordNotFound: 'invalid',
      NotFound: 'invalid',
      BlobTooLarge: 'invalid',
      InvalidSwap: 'transient',
      RateLimitExceeded: 'rate_limited',
    };
    assert.deepEqual(Object.keys(XRPC_ERRORS).sort(), Object.keys(expected).sort());
    for (const [name, kind] of Object.entries(expected)) {
      const error = thrown(() => blueskyBody(answer(name.startsWith('Auth') ? 401 : 400, { error: name, message: 'M' })));
      assert.deepEqual([error.kind, error.details.code, error.message], [kind, name, `${name}: M`], name);
    }
  });

  test('statuses when the name says nothing; 5xx transient (a taken key’s 500 too); other 4xx permanent', () => {
    const expected: Record<number, PlatformErrorKind> = { 400: 'invalid', 401: 'auth', 403: 'permission', 404: 'invalid', 413: 'invalid', 429: 'rate_limited' };
    assert.deepEqual(Object.keys(XRPC_STATUSES).sort(), Object.keys(expected).sort());
    for (const [status, kind] of Object.entries(expected)) assert.equal(thrown(() => blueskyBody(answer(Number(status), { error: 'Unknown' }))).kind, kind, status);
    const taken = thrown(() => blueskyBody(answer(500, { error: 'InternalServerError', message: 'Internal Server Error' })));
    assert.deepEqual([taken.kind, taken.retryable, taken.details.status], ['transient', true, 500]);
    assert.equal(thrown(() => blueskyBody(answer(409, {}))).kind, 'permanent');
    assert.equal(thrown(() => blueskyBody(answer(502, 'Bad Gateway'))).message, 'Bad Gateway');
  });

  test('a 429 waits until ratelimit-reset (epoch seconds)', () => {
    const now = 1_800_000_000_000;
    const limited = thrown(() => blueskyBody(answer(429, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }, { 'ratelimit-reset': String(now / 1000 + 300) }), now));
    assert.deepEqual([limited.kind, limited.retryable, limited.details.retryAfterMs], ['rate_limited', true, 300_000]);
    const past = thrown(() => blueskyBody(answer(429, { error: 'RateLimitExceeded' }, { 'ratelimit-reset': String(now / 1000 - 5) }), now));
    assert.equal(past.details.retryAfterMs, 1000);
  });
});
