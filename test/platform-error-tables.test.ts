// Every row of every platform's error table (issue 13, point 2): a parsed platform answer in, the
// PlatformError kind, code and retryable out, through the functions adapters call. The expected
// kinds are written here, not read from the tables, and each table's rows must be exactly the
// ones listed, so a new row needs its line here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PlatformError, type PlatformErrorKind } from '../src/platforms/errors.ts';
import type { PlatformResponse } from '../src/platforms/http.ts';
import { AUTH_SUBCODES, BY_CODE, BY_SUBCODE, containerFailure, graphBody } from '../src/platforms/meta/errors.ts';
import { ENVELOPE_CODES, redditApi, redditEnvelopeError, redditHttpError, redditToken, STATUSES, TOKEN_ERRORS } from '../src/platforms/reddit/errors.ts';
import { API_CODES, FAIL_REASONS, OAUTH_CODES, tiktokApiError, tiktokData, tiktokFailure, tiktokOAuth, tiktokPublishError } from '../src/platforms/tiktok/errors.ts';
import { TEMPLATE_CODES, WHATSAPP_CODES, whatsappBody } from '../src/platforms/whatsapp/errors.ts';
import { whatsappApiError } from '../src/modules/whatsapp/platform-call.ts';

const RETRYABLE = new Set<PlatformErrorKind>(['transient', 'rate_limited']);

function answer(status: number, body: unknown, headers: Record<string, string> = {}): PlatformResponse {
  return { status, headers: new Headers({ 'content-type': 'application/json', ...headers }), body };
}

function thrown(run: () => unknown): PlatformError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  assert.fail('no PlatformError was thrown');
}

function check(error: PlatformError, kind: PlatformErrorKind, code: string | number | undefined, what: string): void {
  assert.equal(error.kind, kind, `${what}: kind`);
  assert.equal(error.details.code, code, `${what}: code`);
  assert.equal(error.retryable, RETRYABLE.has(kind), `${what}: retryable`);
}

const sameKeys = (table: object, expected: object, name: string) =>
  assert.deepEqual(Object.keys(table).sort(), Object.keys(expected).sort(), `${name}: every row is pinned here`);

describe('tiktok error table', () => {
  const api: Record<string, PlatformErrorKind> = {
    access_token_invalid: 'auth',
    scope_not_authorized: 'permission',
    scope_permission_missed: 'permission',
    invalid_params: 'invalid',
    invalid_param: 'invalid',
    invalid_file_upload: 'invalid',
    privacy_level_option_mismatch: 'invalid',
    url_ownership_unverified: 'invalid',
    unaudited_client_can_only_post_to_private_accounts: 'invalid',
    rate_limit_exceeded: 'rate_limited',
    spam_risk_too_many_posts: 'rate_limited',
    reached_active_user_cap: 'rate_limited',
    spam_risk_user_banned_from_posting: 'permanent',
    internal_error: 'transient',
  };

  test('API envelope codes, the same through connect (tiktokData) and publishing', () => {
    sameKeys(API_CODES, api, 'API_CODES');
    for (const [code, kind] of Object.entries(api)) {
      const body = { data: {}, error: { code, message: 'the message', log_id: 'log' } };
      check(thrown(() => tiktokData(answer(400, body))), kind, code, `tiktokData ${code}`);
      check(tiktokApiError(403, body), kind, code, `tiktokApiError ${code}`);
      const published = tiktokPublishError(403, body);
      check(published, kind, code, `tiktokPublishError ${code}`);
      assert.equal(published.message, `${code}: the message`);
    }
  });

  test('an answer without a known code goes by its status', () => {
    for (const [status, kind] of [[500, 'transient'], [503, 'transient'], [429, 'rate_limited'], [400, 'permanent'], [404, 'permanent']] as const) {
      check(tiktokApiError(status, { error: { code: 'something_new', message: 'x' } }), kind, 'something_new', `status ${status}`);
      check(tiktokPublishError(status, 'not json'), kind, undefined, `status ${status} without a body`);
    }
    assert.deepEqual(tiktokData(answer(200, { data: { user: { open_id: 'o' } }, error: { code: 'ok' } })), { user: { open_id: 'o' } });
  });

  test('OAuth error names', () => {
    const oauth: Record<string, PlatformErrorKind> = {
      invalid_grant: 'auth',
      access_denied: 'auth',
      invalid_client: 'permanent',
      invalid_request: 'invalid',
      invalid_scope: 'invalid',
      unauthorized_client: 'permanent',
      unsupported_grant_type: 'permanent',
    };
    sameKeys(OAUTH_CODES, oauth, 'OAUTH_CODES');
    for (const [code, kind] of Object.entries(oauth)) {
      check(thrown(() => tiktokOAuth(answer(400, { error: code, error_description: 'd', log_id: 'l' }))), kind, code, `oauth ${code}`);
    }
    check(thrown(() => tiktokOAuth(answer(502, 'bad gateway'))), 'transient', undefined, 'oauth 502');
    check(thrown(() => tiktokOAuth(answer(400, { error: 'something_new' }))), 'permanent', 'something_new', 'oauth unknown');
  });

  test('fail_reason of a FAILED publish', () => {
    const reasons: Record<string, PlatformErrorKind> = {
      file_format_check_failed: 'invalid',
      duration_check_failed: 'invalid',
      frame_rate_check_failed: 'invalid',
      picture_size_check_failed: 'invalid',
      video_pull_failed: 'invalid',
      photo_pull_failed: 'invalid',
      internal: 'transient',
      publish_cancelled: 'permanent',
      auth_removed: 'auth',
      spam_risk_too_many_posts: 'rate_limited',
      spam_risk_user_banned_from_posting: 'permanent',
      spam_risk_text: 'invalid',
      spam_risk: 'permanent',
    };
    sameKeys(FAIL_REASONS, reasons, 'FAIL_REASONS');
    for (const [reason, kind] of Object.entries(reasons)) check(tiktokFailure(reason), kind, reason, `fail_reason ${reason}`);
    check(tiktokFailure('something_new'), 'permanent', 'something_new', 'unknown fail_reason');
  });
});

describe('reddit error table', () => {
  test('API statuses, the same through connect (redditApi) and publishing (redditHttpError)', () => {
    const statuses: Record<number, PlatformErrorKind> = { 401: 'auth', 403: 'permission', 404: 'invalid', 429: 'rate_limited' };
    sameKeys(STATUSES, statuses, 'STATUSES');
    const all: Array<[number, PlatformErrorKind]> = [...Object.entries(statuses).map(([s, k]): [number, PlatformErrorKind] => [Number(s), k]), [500, 'transient'], [503, 'transient'], [400, 'permanent'], [409, 'permanent']];
    for (const [status, kind] of all) {
      check(thrown(() => redditApi(answer(status, { message: 'x', error: status }))), kind, undefined, `redditApi ${status}`);
      const published = redditHttpError(status);
      check(published, kind, undefined, `redditHttpError ${status}`);
      assert.match(published.message, new RegExp(`\\(HTTP ${status}\\)$`));
      assert.equal(published.details.status, status);
    }
  });

  test('a 429 carries X-Ratelimit-Reset as the wait; other statuses do not', () => {
    const headers = { 'x-ratelimit-reset': '42' };
    assert.equal(thrown(() => redditApi(answer(429, {}, headers))).details.retryAfterMs, 42_000);
    assert.equal(redditHttpError(429, new Headers(headers)).details.retryAfterMs, 42_000);
    assert.equal(thrown(() => redditApi(answer(503, {}, headers))).details.retryAfterMs, undefined);
    assert.equal(redditHttpError(401, new Headers(headers)).details.retryAfterMs, undefined);
  });

  test('token endpoint error names (HTTP 200 on the code exchange, 400 on refresh)', () => {
    const names: Record<string, PlatformErrorKind> = { invalid_grant: 'auth', unsupported_grant_type: 'permanent', invalid_request: 'invalid', invalid_scope: 'invalid' };
    sameKeys(TOKEN_ERRORS, names, 'TOKEN_ERRORS');
    for (const [name, kind] of Object.entries(names)) {
      check(thrown(() => redditToken(answer(200, { error: name }))), kind, name, `token ${name} (200)`);
      check(thrown(() => redditToken(answer(400, { error: name }))), kind, name, `token ${name} (400)`);
    }
    // A bad client id or secret: our configuration, not the person's token.
    check(thrown(() => redditToken(answer(401, { message: 'Unauthorized', error: 401 }))), 'permanent', undefined, 'token 401');
    check(thrown(() => redditToken(answer(429, {}))), 'rate_limited', undefined, 'token 429');
    check(thrown(() => redditToken(answer(503, {}))), 'transient', undefined, 'token 503');
    check(thrown(() => redditToken(answer(200, { error: 'something_new' }))), 'permanent', 'something_new', 'token unknown');
  });

  test('envelope triplets, by the first CODE', () => {
    const codes: Record<string, PlatformErrorKind> = {
      RATELIMIT: 'rate_limited',
      SUBREDDIT_NOEXIST: 'invalid',
      SUBREDDIT_NOTALLOWED: 'permission',
      SUBREDDIT_REQUIRED: 'invalid',
      NO_TEXT: 'invalid',
      TOO_LONG: 'invalid',
      NO_URL: 'invalid',
      BAD_URL: 'invalid',
      ALREADY_SUB: 'invalid',
      NO_SELFS: 'invalid',
      NO_LINKS: 'invalid',
      DOMAIN_BANNED: 'invalid',
      INVALID_OPTION: 'invalid',
      SUBMIT_VALIDATION_FLAIR_REQUIRED: 'invalid',
      NO_THING_ID: 'invalid',
      DELETED_COMMENT: 'invalid',
      DELETED_LINK: 'invalid',
      USER_REQUIRED: 'auth',
      BAD_CAPTCHA: 'permanent',
      IN_TIMEOUT: 'permanent',
      THREAD_LOCKED: 'permanent',
      TOO_OLD: 'permanent',
    };
    sameKeys(ENVELOPE_CODES, codes, 'ENVELOPE_CODES');
    for (const [code, kind] of Object.entries(codes)) check(redditEnvelopeError([[code, 'msg', 'field'], ['TOO_LONG', 'other', 'title']]), kind, code, `envelope ${code}`);
    const unknown = redditEnvelopeError([['SOMETHING_NEW', 'msg', '']]);
    check(unknown, 'permanent', 'SOMETHING_NEW', 'envelope unknown');
    assert.equal(unknown.message, 'SOMETHING_NEW: msg');
  });
});

describe('Graph (Meta family) error table', () => {
  const graphError = (status: number, error: Record<string, unknown>, platform = 'facebook') => thrown(() => graphBody(platform, answer(status, { error: { message: 'the message', type: 'OAuthException', ...error } })));

  test('codes, for every platform of the family', () => {
    const codes: Record<number, PlatformErrorKind> = {
      1: 'transient',
      2: 'transient',
      3: 'permission',
      4: 'rate_limited',
      9: 'rate_limited',
      10: 'permission',
      17: 'rate_limited',
      24: 'invalid',
      32: 'rate_limited',
      100: 'invalid',
      324: 'invalid',
      102: 'auth',
      190: 'auth',
      341: 'rate_limited',
      368: 'permanent',
      506: 'invalid',
      613: 'rate_limited',
      1609005: 'invalid',
      80007: 'rate_limited',
      130429: 'rate_limited',
      131056: 'rate_limited',
      131000: 'transient',
      131016: 'transient',
      133004: 'transient',
    };
    assert.deepEqual([...BY_CODE.keys()].sort((a, b) => a - b), Object.keys(codes).map(Number).sort((a, b) => a - b), 'BY_CODE: every row is pinned here');
    for (const platform of ['facebook', 'instagram', 'threads', 'whatsapp']) {
      for (const [code, kind] of Object.entries(codes)) {
        const error = graphError(400, { code: Number(code) }, platform);
        check(error, kind, Number(code), `${platform} code ${code}`);
        assert.equal(error.details.platform, platform);
        assert.equal(error.message, 'the message');
      }
    }
  });

  test('authentication subcodes make any code an auth error', () => {
    assert.deepEqual([...AUTH_SUBCODES].sort((a, b) => a - b), [458, 459, 460, 463, 464, 467, 492]);
    for (const subcode of AUTH_SUBCODES) {
      for (const code of [190, 102, 10]) {
        const error = graphError(400, { code, error_subcode: subcode });
        check(error, 'auth', code, `${code}/${subcode}`);
        assert.equal(error.details.subcode, subcode);
      }
    }
  });

  test('ranges, is_transient, and answers without a code', () => {
    for (const code of [200, 250, 299]) check(graphError(403, { code }), 'permission', code, `code ${code}`);
    for (const code of [80000, 80001, 80014]) check(graphError(400, { code }), 'rate_limited', code, `code ${code}`);
    for (const code of [36000, 36002, 36004]) check(graphError(400, { code }), 'invalid', code, `code ${code}`);
    check(graphError(400, { code: 777, is_transient: true }), 'transient', 777, 'unknown code, is_transient');
    check(graphError(400, { code: 777 }), 'permanent', 777, 'unknown code');
    check(graphError(500, { code: 777 }), 'transient', 777, 'unknown code, 500');
    check(graphError(429, { code: 777 }), 'rate_limited', 777, 'unknown code, 429');
    // A known code decides over is_transient: a policy block is not hammered.
    check(graphError(400, { code: 368, is_transient: true }), 'permanent', 368, '368 with is_transient');
    check(graphError(400, { message: 'no code' }), 'invalid', undefined, 'a 400 error without a code');
    check(thrown(() => graphBody('threads', answer(400, { error_type: 'OAuthException', code: 400, error_message: 'Matching code was not found' }))), 'invalid', undefined, 'the OAuth shape');
    check(thrown(() => graphBody('threads', answer(503, 'unavailable'))), 'transient', undefined, 'a 503 without a body');
    check(thrown(() => graphBody('threads', answer(404, 'not found'))), 'permanent', undefined, 'a 404 without a body');
    check(thrown(() => graphBody('threads', answer(200, 'not an object'))), 'transient', undefined, 'a 200 that is not an object');
    assert.deepEqual(graphBody('threads', answer(200, { id: '1' })), { id: '1' });
  });

  const subcodes: Record<number, [number | null, PlatformErrorKind]> = {
    2207001: [-1, 'transient'],
    2207003: [-2, 'transient'],
    2207004: [36000, 'invalid'],
    2207005: [36001, 'invalid'],
    2207006: [24, 'invalid'],
    2207008: [24, 'transient'],
    2207009: [36003, 'invalid'],
    2207010: [36004, 'invalid'],
    2207020: [-2, 'transient'],
    2207023: [100, 'invalid'],
    2207026: [352, 'invalid'],
    2207027: [9007, 'transient'],
    2207032: [-1, 'transient'],
    2207042: [9, 'rate_limited'],
    2207050: [25, 'permanent'],
    2207051: [4, 'permanent'],
    2207052: [9004, 'invalid'],
    2207053: [-1, 'transient'],
    2207057: [1, 'invalid'],
    2207076: [null, 'invalid'],
  };

  test('Instagram publishing subcodes, with their code, before the code table', () => {
    assert.deepEqual([...BY_SUBCODE.keys()].sort((a, b) => a - b), Object.keys(subcodes).map(Number).sort((a, b) => a - b), 'BY_SUBCODE: every row is pinned here');
    for (const [subcode, [code, kind]] of Object.entries(subcodes)) {
      const error = graphError(400, { code: code ?? 2, error_subcode: Number(subcode) }, 'instagram');
      check(error, kind, code ?? 2, `${code ?? 'any'}/${subcode}`);
      assert.equal(error.details.subcode, Number(subcode));
      assert.equal(BY_SUBCODE.get(Number(subcode))?.code, code);
    }
    // With another code than its own, a subcode row does not apply: the code decides.
    check(graphError(400, { code: 100, error_subcode: 2207051 }), 'invalid', 100, '100/2207051');
    check(graphError(400, { code: 1, error_subcode: 2207042 }), 'transient', 1, '1/2207042');
  });

  test("Instagram container failures: the subcode in the container's status", () => {
    for (const [subcode, [, kind]] of Object.entries(subcodes)) {
      const error = containerFailure(`Error: Media upload has failed with error code ${subcode}`);
      assert.equal(error.kind, kind, `container ${subcode}`);
      assert.equal(error.details.subcode, Number(subcode));
      assert.equal(error.retryable, RETRYABLE.has(kind));
      assert.match(error.message, new RegExp(`^Instagram could not process the media: .+ \\(${subcode}\\)$`));
    }
    assert.equal(containerFailure('Error: Media upload has failed with error code 2207052').message, 'Instagram could not process the media: the media could not be fetched from its URL (2207052)');
    const unknown = containerFailure('ERROR');
    assert.equal(unknown.kind, 'invalid');
    assert.equal(unknown.message, 'Instagram could not process the media: ERROR');
    assert.equal(unknown.details.subcode, undefined);
  });
});

describe('WhatsApp Cloud API error table', () => {
  const cloudError = (status: number, error: Record<string, unknown>) => thrown(() => whatsappBody(answer(status, { error: { message: '(#1) the title', type: 'OAuthException', ...error } })));

  // Each row: the PlatformError kind, then the contract's answer (status and code).
  const rows: Record<number, [PlatformErrorKind, number, string]> = {
    0: ['auth', 409, 'reconnect_required'],
    131047: ['outside_window', 409, 'outside_messaging_window'],
    131030: ['invalid', 403, 'recipient_not_allowed'],
    131031: ['permanent', 403, 'account_restricted'],
    368: ['permanent', 403, 'account_restricted'],
    131042: ['permanent', 403, 'account_restricted'],
    130497: ['permanent', 403, 'account_restricted'],
    133010: ['permanent', 409, 'phone_number_not_registered'],
    131049: ['permanent', 429, 'marketing_limit'],
    131050: ['permanent', 429, 'marketing_limit'],
    131008: ['invalid', 400, 'invalid_request'],
    131009: ['invalid', 400, 'invalid_request'],
    131021: ['invalid', 400, 'invalid_request'],
    131051: ['invalid', 400, 'invalid_request'],
    131052: ['invalid', 400, 'invalid_request'],
    131053: ['invalid', 400, 'invalid_request'],
    133005: ['invalid', 400, 'invalid_request'],
    133006: ['invalid', 400, 'invalid_request'],
    133008: ['invalid', 400, 'invalid_request'],
    133009: ['invalid', 400, 'invalid_request'],
    133015: ['rate_limited', 429, 'rate_limited'],
    133016: ['rate_limited', 429, 'rate_limited'],
    130429: ['rate_limited', 429, 'rate_limited'],
    131056: ['rate_limited', 429, 'rate_limited'],
    80007: ['rate_limited', 429, 'rate_limited'],
  };

  test('each code of the table: its kind and its answer', () => {
    assert.deepEqual([...WHATSAPP_CODES.keys()].sort((a, b) => a - b), Object.keys(rows).map(Number).sort((a, b) => a - b), 'WHATSAPP_CODES: every row is pinned here');
    for (const [code, [kind, status, answer]] of Object.entries(rows)) {
      const error = cloudError(400, { code: Number(code) });
      check(error, kind, Number(code), `code ${code}`);
      assert.equal(error.details.platform, 'whatsapp');
      const api = whatsappApiError(error);
      assert.deepEqual([api.status, api.code], [status, answer], `code ${code}`);
    }
  });

  test('132000–132999 are template_error; what Meta says to show is the message', () => {
    assert.deepEqual(TEMPLATE_CODES, { from: 132000, to: 132999 });
    for (const code of [132000, 132001, 132005, 132007, 132012, 132015, 132016, 132999]) {
      const error = cloudError(400, { code, error_data: { messaging_product: 'whatsapp', details: 'what is wrong' } });
      check(error, 'invalid', code, `code ${code}`);
      assert.equal(error.message, '(#1) the title: what is wrong');
      assert.deepEqual([whatsappApiError(error).status, whatsappApiError(error).code], [400, 'template_error']);
    }
    check(cloudError(400, { code: 131999 }), 'permanent', 131999, 'just below the range');
    check(cloudError(400, { code: 133000 }), 'permanent', 133000, 'just above the range');
  });

  test('codes outside the table go by the Graph table: permission, reconnect, transient, invalid; in template calls a rejected input is template_error', () => {
    const graph: Array<[number, PlatformErrorKind, number, string]> = [
      [190, 'auth', 409, 'reconnect_required'],
      [10, 'permission', 403, 'missing_permission'],
      [200, 'permission', 403, 'missing_permission'],
      [4, 'rate_limited', 429, 'rate_limited'],
      [131000, 'transient', 502, 'platform_error'],
      [131016, 'transient', 502, 'platform_error'],
      [133004, 'transient', 502, 'platform_error'],
      [100, 'invalid', 400, 'invalid_request'],
      [131026, 'permanent', 502, 'platform_error'],
    ];
    for (const [code, kind, status, answer] of graph) {
      const error = cloudError(400, { code });
      check(error, kind, code, `code ${code}`);
      assert.deepEqual([whatsappApiError(error).status, whatsappApiError(error).code], [status, answer], `code ${code}`);
    }
    const rejected = cloudError(400, { code: 100, error_user_title: 'Invalid name', error_user_msg: 'Use lowercase letters.' });
    assert.equal(rejected.message, 'Invalid name: Use lowercase letters.');
    assert.deepEqual([whatsappApiError(rejected, 'template_error').status, whatsappApiError(rejected, 'template_error').code], [400, 'template_error']);
    // Not every failure of a template call is the template's: a rate limit stays one.
    assert.equal(whatsappApiError(cloudError(400, { code: 80007 }), 'template_error').code, 'rate_limited');
    check(thrown(() => whatsappBody(answer(503, 'unavailable'))), 'transient', undefined, 'a 503 without a body');
    assert.deepEqual(whatsappBody(answer(200, { success: true })), { success: true });
  });
});
