// The Cloud API's error table (platforms.md §7.6, DESIGN "WhatsApp"): each code the contract
// names answers with its own catalogue code; the rest fall back to the Graph table of the Meta
// family (meta/errors.ts: 190 reconnect, 10 and 200–299 missing permission, 100 invalid …).
// Keyed on the parsed `code`, never on message text. The message shown is the Cloud API's
// `error_data.details` (what Meta says to show) or `error_user_msg`, else its `message`.
import type { ErrorCode } from '../../http/errors.ts';
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { obj, str } from '../json.ts';
import { graphKind, parseGraphError } from '../meta/errors.ts';

export interface WhatsAppErrorRow {
  kind: PlatformErrorKind;
  /** The contract's code for it. */
  code: ErrorCode;
}

const row = (kind: PlatformErrorKind, code: ErrorCode): WhatsAppErrorRow => ({ kind, code });

/** Codes the contract gives their own answer. Marketing limits are not retried: Meta says to wait. */
export const WHATSAPP_CODES: ReadonlyMap<number, WhatsAppErrorRow> = new Map<number, WhatsAppErrorRow>([
  [0, row('auth', 'reconnect_required')], // AuthException
  [131047, row('outside_window', 'outside_messaging_window')], // re-engagement: over 24 h since the person wrote
  [131030, row('invalid', 'recipient_not_allowed')], // a test number's allowed list
  [131031, row('permanent', 'account_restricted')], // business account locked
  [368, row('permanent', 'account_restricted')], // temporarily blocked for policy violations
  [133010, row('permanent', 'phone_number_not_registered')],
  [131049, row('permanent', 'marketing_limit')], // Meta chose not to deliver (frequency cap)
  [131050, row('permanent', 'marketing_limit')], // the person stopped marketing messages
  [131042, row('permanent', 'account_restricted')], // business eligibility: payment issue
  [130497, row('permanent', 'account_restricted')], // restricted from messaging users in this country
  // Rejected input: a 400 naming the problem, not a platform failure.
  [131008, row('invalid', 'invalid_request')], // required parameter missing
  [131009, row('invalid', 'invalid_request')], // parameter value not valid
  [131021, row('invalid', 'invalid_request')], // recipient cannot be sender
  [131051, row('invalid', 'invalid_request')], // unsupported message type
  [131052, row('invalid', 'invalid_request')], // media download error
  [131053, row('invalid', 'invalid_request')], // media upload error (type or size)
  [133005, row('invalid', 'invalid_request')], // two-step PIN mismatch
  [133006, row('invalid', 'invalid_request')], // phone number needs re-verification
  [133008, row('invalid', 'invalid_request')], // too many PIN guesses
  [133009, row('invalid', 'invalid_request')], // PIN guessed too fast
  [133015, row('rate_limited', 'rate_limited')], // wait a few minutes before registering
  [133016, row('rate_limited', 'rate_limited')], // register/deregister rate limit
  [130429, row('rate_limited', 'rate_limited')], // Cloud API throughput
  [131056, row('rate_limited', 'rate_limited')], // pair rate limit
  [80007, row('rate_limited', 'rate_limited')], // WABA rate limit
]);

/** 132000–132999: the template's name, language, parameters or status were rejected. */
export const TEMPLATE_CODES = { from: 132000, to: 132999 } as const;
const TEMPLATE_ROW = row('invalid', 'template_error');

/** The row of a Cloud API code, or null when the Graph table decides. */
export function whatsappErrorRow(code: number | string | undefined): WhatsAppErrorRow | null {
  if (typeof code !== 'number') return null;
  if (code >= TEMPLATE_CODES.from && code <= TEMPLATE_CODES.to) return TEMPLATE_ROW;
  return WHATSAPP_CODES.get(code) ?? null;
}

/** What Meta says to show: error_data.details, then error_user_msg, then the message. */
function shownMessage(body: unknown, fallback: string): string {
  const error = obj(obj(body).error);
  const details = str(obj(error.error_data).details);
  const user = str(error.error_user_msg);
  const title = str(error.error_user_title);
  if (details) return `${fallback}: ${details}`;
  if (user) return title ? `${title}: ${user}` : user;
  return fallback;
}

/** Throws the PlatformError of a failed Cloud API answer; returns the body of a good one. */
export function whatsappBody(response: PlatformResponse): Record<string, unknown> {
  const error = parseGraphError(response.body);
  if (response.status >= 200 && response.status < 300 && !error) {
    if (response.body && typeof response.body === 'object' && !Array.isArray(response.body)) return response.body as Record<string, unknown>;
    throw new PlatformError('transient', `unexpected answer (HTTP ${response.status})`, { platform: 'whatsapp', status: response.status });
  }
  const parsed = error ?? { message: `HTTP ${response.status}`, code: null, subcode: null, isTransient: false };
  const known = whatsappErrorRow(parsed.code ?? undefined);
  const kind = known?.kind ?? (parsed.code === null && response.status === 400 && error ? 'invalid' : graphKind(parsed, response.status));
  throw new PlatformError(kind, shownMessage(response.body, parsed.message), {
    platform: 'whatsapp',
    status: response.status,
    ...(parsed.code !== null ? { code: parsed.code } : {}),
    ...(parsed.subcode !== null ? { subcode: parsed.subcode } : {}),
  });
}

/** Graph's answer for an object that does not exist or is not visible (100 with subcode 33). */
export const isUnknownObject = (error: unknown): boolean => error instanceof PlatformError && error.details.code === 100 && error.details.subcode === 33;
