// The Marketing API's error table (platforms.md §9.8, §1.3–1.4), pinned row by row: each code
// and subcode to its kind, the retry time read from the usage headers, Meta's user message on
// invalid input, and the contract's answer each kind gets (toApiError).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PlatformError, toApiError, type PlatformErrorKind } from '../src/platforms/errors.ts';
import { DEFAULT_ADS_WAIT_MS, MARKETING_CODES, MARKETING_INVALID_SUBCODES, marketingBody, usageWaitMs } from '../src/platforms/meta/marketing-errors.ts';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers), body });
function thrown(run: () => unknown): PlatformError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('nothing thrown');
}
const failure = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) =>
  thrown(() => marketingBody(answer(status, { error: { message: 'the message', type: 'OAuthException', ...error } }, headers)));

describe('Marketing API error table', () => {
  test('codes, each pinned, with the contract code each kind answers', () => {
    const codes: Record<number, PlatformErrorKind> = { 10: 'permission', 17: 'rate_limited', 100: 'invalid', 200: 'permission', 368: 'permanent', 613: 'rate_limited', 2635: 'permanent', 80000: 'rate_limited', 80003: 'rate_limited', 80004: 'rate_limited' };
    assert.deepEqual([...MARKETING_CODES.keys()].sort((a, b) => a - b), Object.keys(codes).map(Number));
    const contract: Record<string, [number, string]> = { permission: [403, 'missing_permission'], rate_limited: [429, 'rate_limited'], invalid: [400, 'invalid_request'], permanent: [502, 'platform_error'] };
    for (const [code, kind] of Object.entries(codes)) {
      const error = failure(400, { code: Number(code) });
      assert.equal(error.kind, kind, `code ${code}`);
      assert.equal(error.details.code, Number(code));
      assert.equal(error.details.platform, 'facebook');
      const api = toApiError(error);
      assert.deepEqual([api.status, api.code], contract[kind], `code ${code}`);
    }
  });

  test('the Graph table decides the rest: 190 and its subcodes reconnect, 5xx and 1/2 are transient', () => {
    for (const error of [failure(400, { code: 190, error_subcode: 463 }), failure(400, { code: 190 }), failure(400, { code: 102 })]) {
      assert.equal(error.kind, 'auth');
      assert.deepEqual([toApiError(error).status, toApiError(error).code], [409, 'reconnect_required']);
    }
    assert.equal(failure(500, { code: 1 }).kind, 'transient');
    assert.equal(failure(503, { code: 2 }).kind, 'transient');
    assert.equal(failure(400, { code: 4 }).kind, 'rate_limited');
  });

  test('validation subcodes are invalid input, shown with error_user_title and error_user_msg', () => {
    assert.deepEqual([...MARKETING_INVALID_SUBCODES].sort((a, b) => a - b), [33, 1713230, 1870227, 1885272, 2446149]);
    for (const subcode of MARKETING_INVALID_SUBCODES) assert.equal(failure(400, { code: 100, error_subcode: subcode }).kind, 'invalid', `subcode ${subcode}`);
    const error = failure(400, { code: 100, error_subcode: 1885272, error_user_title: 'Your Budget Is Too Low', error_user_msg: 'The minimum budget for this ad set is 1.00 USD.' });
    assert.equal(error.message, 'Your Budget Is Too Low: The minimum budget for this ad set is 1.00 USD.');
    assert.equal(toApiError(error).message, 'facebook: Your Budget Is Too Low: The minimum budget for this ad set is 1.00 USD.');
    assert.equal(failure(400, { code: 100 }).message, 'the message');
  });

  test('throttles: subcode 2446079 with any code, the wait from the usage headers', () => {
    const buc = JSON.stringify({ '123': [{ type: 'ads_management', call_count: 100, estimated_time_to_regain_access: 3 }, { type: 'ads_insights', call_count: 20, estimated_time_to_regain_access: 0 }] });
    const error = failure(400, { code: 17, error_subcode: 2446079 }, { 'x-business-use-case-usage': buc });
    assert.equal(error.kind, 'rate_limited');
    assert.equal(error.details.retryAfterMs, 180_000);
    const account = failure(400, { code: 80004, error_subcode: 2446079 }, { 'x-ad-account-usage': JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 250 }) });
    assert.equal(account.details.retryAfterMs, 250_000);
    assert.equal(failure(400, { code: 80000 }).details.retryAfterMs, DEFAULT_ADS_WAIT_MS);
    assert.equal(failure(400, { code: 9999, error_subcode: 2446079 }).kind, 'rate_limited');
    // The larger of the two headers wins; unreadable headers name no wait.
    assert.equal(usageWaitMs(new Headers({ 'x-business-use-case-usage': buc, 'x-ad-account-usage': '{"reset_time_duration":30}' })), 180_000);
    assert.equal(usageWaitMs(new Headers({ 'x-business-use-case-usage': 'not json' })), null);
  });

  test('permissions name what to grant', () => {
    const error = failure(403, { code: 200, message: '(#200) Requires ads_management permission to manage the object' });
    assert.equal(error.kind, 'permission');
    assert.equal(error.details.permission, 'ads_management');
    assert.match(error.message, /grant ads_management and ads_read, then reconnect/);
  });

  test('good answers pass; a non-object answer is transient', () => {
    assert.deepEqual(marketingBody(answer(200, { id: '1' })), { id: '1' });
    assert.equal(thrown(() => marketingBody(answer(200, 'text'))).kind, 'transient');
  });
});
