// The one error catalogue (src/http/errors.ts): every code the API answers is declared there once
// with its status; the statuses are pinned here, agree with the contract's Errors table, and are
// what goes on the wire. toApiError gives each platform failure kind its entry, and no source
// file writes a code into a message text by hand.
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { apiError, ERROR_CODES, handleError, targetError, type ErrorCode } from '../src/http/errors.ts';
import { PlatformError, toApiError, type PlatformErrorKind } from '../src/platforms/errors.ts';
import { ROOT } from './harness/cli.ts';

/** Today's statuses: changing one is a change of the contract, not of this table alone. */
const STATUSES: Record<ErrorCode, number> = {
  not_supported: 400,
  invalid_request: 400,
  approval_required: 403,
  missing_permission: 403,
  reconnect_required: 409,
  outside_messaging_window: 409,
  recipient_unavailable: 409,
  sync_required: 409,
  NOT_EDITABLE: 409,
  PUBLISH_IN_PROGRESS: 409,
  ALREADY_PUBLISHED: 409,
  APPROVAL_REQUIRED: 409,
  REJECTED: 409,
  NOT_PUBLISHED: 409,
  ACCOUNT_REMOVED: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  REQUEST_IN_PROGRESS: 409,
  REQUEST_OUTCOME_UNKNOWN: 409,
  DELIVERY_IN_PROGRESS: 409,
  template_error: 400,
  recipient_not_allowed: 403,
  account_restricted: 403,
  phone_number_not_registered: 409,
  marketing_limit: 429,
  pending_expired: 410,
  payload_too_large: 413,
  rate_limited: 429,
  platform_error: 502,
};

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** The contract's Errors table: status and the codes named in each row. */
function contractRows(): Array<{ status: number; codes: string[] }> {
  const doc = readFileSync(join(ROOT, 'docs/interface.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Errors'), doc.indexOf('\n## Limits'));
  const rows = [];
  for (const line of section.split('\n')) {
    const cells = /^\| (\d{3}) \| ([^|]+) \|/.exec(line);
    if (cells?.[1] && cells[2]) rows.push({ status: Number(cells[1]), codes: cells[2].split(/,\s*|\s+and\s+/).map((c) => c.trim()) });
  }
  return rows;
}

describe('error catalogue', () => {
  test('every code the catalogue declares has its status, and a meaning', () => {
    assert.deepEqual(Object.fromEntries(CODES.map((code) => [code, ERROR_CODES[code].status])), STATUSES);
    for (const code of CODES) {
      const error = apiError(code, 'what went wrong');
      assert.equal(error.status, STATUSES[code], code);
      assert.equal(error.code, code);
      assert.equal(error.message, 'what went wrong');
      assert.ok(ERROR_CODES[code].meaning.length > 0, code);
    }
  });

  test('every code the contract names has the contract status in the catalogue', () => {
    const rows = contractRows();
    assert.ok(rows.length >= 20, 'the Errors table of docs/interface.md was not found');
    const named = rows.flatMap(({ status, codes }) => codes.filter((c): c is ErrorCode => c in ERROR_CODES).map((code) => ({ status, code })));
    // Everything the contract names and the service answers today (the WhatsApp codes come with their issue).
    assert.deepEqual(named.map((n) => n.code).sort(), [
      'ALREADY_PUBLISHED', 'APPROVAL_REQUIRED', 'NOT_EDITABLE',
      'account_restricted', 'approval_required', 'invalid_request', 'marketing_limit', 'missing_permission', 'not_supported',
      'outside_messaging_window', 'pending_expired', 'phone_number_not_registered', 'platform_error', 'rate_limited', 'recipient_not_allowed',
      'recipient_unavailable', 'reconnect_required', 'sync_required', 'template_error',
    ]);
    for (const { status, code } of named) assert.equal(ERROR_CODES[code].status, status, code);
  });

  test('each entry goes on the wire with its status, its code and the message as given', async () => {
    const app = Fastify();
    app.setErrorHandler(handleError);
    app.get<{ Params: { code: string } }>('/fail/:code', (request) => {
      throw apiError(request.params.code as ErrorCode, `${request.params.code} happened`);
    });
    try {
      for (const code of CODES) {
        const res = await app.inject({ method: 'GET', url: `/fail/${code}` });
        assert.equal(res.statusCode, STATUSES[code], code);
        assert.deepEqual(res.json(), { error: { message: `${code} happened`, code } });
      }
    } finally {
      await app.close();
    }
  });

  test('toApiError answers each platform failure kind with its catalogue entry, as before', () => {
    const expected: Record<PlatformErrorKind, [number, ErrorCode, string]> = {
      auth: [409, 'reconnect_required', 'reddit: the token expired; reconnect the account'],
      permission: [403, 'missing_permission', 'reddit: the token expired'],
      invalid: [400, 'invalid_request', 'reddit: the token expired'],
      rate_limited: [429, 'rate_limited', 'reddit: the token expired'],
      not_supported: [400, 'not_supported', 'reddit: the token expired'],
      transient: [502, 'platform_error', 'reddit: the token expired'],
      permanent: [502, 'platform_error', 'reddit: the token expired'],
      outside_window: [409, 'outside_messaging_window', 'reddit: the token expired'],
      recipient_unavailable: [409, 'recipient_unavailable', 'reddit: the token expired'],
    };
    for (const [kind, [status, code, message]] of Object.entries(expected) as Array<[PlatformErrorKind, [number, ErrorCode, string]]>) {
      const answer = toApiError(new PlatformError(kind, 'the token expired', { platform: 'reddit' }));
      assert.deepEqual({ status: answer.status, code: answer.code, message: answer.message }, { status, code, message }, kind);
    }
  });

  test('target error texts start with their code, written by targetError only', () => {
    assert.equal(targetError('reconnect_required', 'the account must be reconnected'), 'reconnect_required: the account must be reconnected');
    assert.equal(targetError('missing_permission', 'x'), 'missing_permission: x');
    assert.equal(targetError('invalid_media', 'x'), 'invalid_media: x');
    // No source file (the catalogue itself and the sandbox, which plays the platforms, aside) writes "code: " into a text by hand.
    const prefixes = new RegExp(`['"\`](${[...CODES, 'invalid_media'].join('|')}): `);
    const offenders = globSync('src/**/*.ts', { cwd: ROOT })
      .filter((file) => !file.startsWith(join('src', 'sandbox')) && file !== join('src', 'http', 'errors.ts'))
      .filter((file) => prefixes.test(readFileSync(join(ROOT, file), 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
