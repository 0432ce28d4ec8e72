// Every row of pinterest's error table (src/platforms/pinterest/api.ts; platforms/pinterest.md §6):
// a parsed answer in, the PlatformError kind, code and retryable out. Pinterest's integer codes are
// not documented per endpoint, so the table keys on the HTTP status, except code 29 (an app with
// Trial access creating Pins in production). The expected kinds are written here, and the table's
// rows must be exactly these, so a new row needs its line here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PlatformError, type PlatformErrorKind } from '../src/platforms/errors.ts';
import type { PlatformResponse } from '../src/platforms/http.ts';
import { pinterestBody, pinterestTime, STATUSES, TRIAL_CODE } from '../src/platforms/pinterest/api.ts';

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

describe('pinterest error table', () => {
  test('statuses, with the code kept', () => {
    const expected: Record<number, PlatformErrorKind> = { 400: 'invalid', 401: 'auth', 403: 'permission', 404: 'invalid', 409: 'invalid', 429: 'rate_limited' };
    assert.deepEqual(Object.keys(STATUSES).sort(), Object.keys(expected).sort());
    for (const [status, kind] of Object.entries(expected)) {
      const error = thrown(() => pinterestBody(answer(Number(status), { code: 7, message: `status ${status}` })));
      assert.equal(error.kind, kind, status);
      assert.equal(error.details.code, 7);
      assert.equal(error.message, `status ${status}`);
      assert.equal(error.retryable, kind === 'rate_limited', status);
    }
  });

  test('any other 4xx is permanent, a 5xx transient; a 429 with Retry-After waits that long', () => {
    assert.equal(thrown(() => pinterestBody(answer(413, { code: 1, message: 'too big' }))).kind, 'permanent');
    const outage = thrown(() => pinterestBody(answer(503, 'Service Unavailable')));
    assert.deepEqual([outage.kind, outage.retryable, outage.message], ['transient', true, 'HTTP 503']);
    assert.equal(thrown(() => pinterestBody(answer(429, { code: 8, message: 'slow down' }, { 'retry-after': '30' }))).details.retryAfterMs, 30_000);
  });

  test('code 29 (Trial access) is a permission failure naming Standard access, whatever the status', () => {
    assert.equal(TRIAL_CODE, 29);
    for (const status of [400, 403]) {
      const error = thrown(() => pinterestBody(answer(status, { code: 29, message: 'Apps with Trial access may not create Pins in production' })));
      assert.equal(error.kind, 'permission');
      assert.match(error.message, /Standard access/);
      assert.equal(error.details.permission, 'Standard access of the Pinterest app');
    }
  });

  test('a success answers its body; created_at without an offset reads as UTC', () => {
    assert.deepEqual(pinterestBody(answer(201, { id: '1' })), { id: '1' });
    assert.equal(pinterestTime('2026-11-29T00:27:19'), Date.UTC(2026, 10, 29, 0, 27, 19));
    assert.equal(pinterestTime('2026-11-29T00:27:19+01:00'), Date.UTC(2026, 10, 28, 23, 27, 19));
    assert.equal(pinterestTime('not a date'), null);
  });
});
