// The Cloud API error object (platforms.md §1.2, §7.6): the Graph error with the code's title in
// `message` (`(#131047) Re-engagement message`) and `error_data.details`, the field Meta says to
// show and branch on. HTTP statuses follow the §7.6 table (third-party mirrors, unconfirmed);
// `error_subcode` is deprecated for Cloud API v16+ and not sent.
import { PlatformError } from '../core/platform-error.ts';
import { IdGenerator } from '../core/ids.ts';

const traces = new IdGenerator('wa-fbtrace');

/** code → [title, HTTP status]. */
export const WHATSAPP_ERRORS: Record<number, [string, number]> = {
  0: ['AuthException', 401],
  1: ['API Unknown', 400],
  2: ['API Service', 503],
  3: ['API Method', 500],
  4: ['API Too Many Calls', 429],
  10: ['Permission Denied', 403],
  33: ['Parameter value is not valid', 400],
  100: ['Invalid parameter', 400],
  190: ['Access token has expired', 401],
  200: ['API Permission', 403],
  368: ['Temporarily blocked for policies violations', 403],
  80007: ['Rate limit issues', 429],
  130429: ['Rate limit hit', 429],
  130497: ['Business account is restricted from messaging users in this country', 403],
  131000: ['Something went wrong', 500],
  131005: ['Access denied', 403],
  131008: ['Required parameter is missing', 400],
  131009: ['Parameter value is not valid', 400],
  131016: ['Service unavailable', 500],
  131021: ['Recipient cannot be sender', 400],
  131026: ['Message undeliverable', 400],
  131030: ['Recipient phone number not in allowed list', 400],
  131031: ['Business Account locked', 403],
  131037: ['WhatsApp provided number needs display name approval before message can be sent', 400],
  131042: ['Business eligibility payment issue', 400],
  131045: ['Incorrect certificate', 500],
  131047: ['Re-engagement message', 400],
  131048: ['Spam rate limit hit', 400],
  131049: ['This message was not delivered to maintain healthy ecosystem engagement', 400],
  131050: ['Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business', 400],
  131051: ['Unsupported message type', 400],
  131052: ['Media download error', 400],
  131053: ['Media upload error', 400],
  131055: ['Method not allowed', 405],
  131056: ['(Business Account, Consumer Account) pair rate limit hit', 429],
  131057: ['Account in maintenance mode', 500],
  132000: ['Number of parameters does not match the expected number of params', 400],
  132001: ['Template name does not exist in the translation', 404],
  132005: ['Translated text too long', 400],
  132007: ['Template Format Character Policy Violated', 400],
  132012: ['Parameter format does not match format in the created template', 400],
  132015: ['Template is Paused', 400],
  132016: ['Template is Disabled', 400],
  133000: ['Incomplete deregistration', 500],
  133004: ['Server Temporarily Unavailable', 503],
  133005: ['Two step verification PIN Mismatch', 400],
  133006: ['Phone number re-verification needed', 400],
  133008: ['Too many two step verification PIN guesses for this phone number', 400],
  133009: ['Two step verification PIN Guessed Too Fast', 400],
  133010: ['Phone number Not Registered', 400],
  133015: ['Please wait a few minutes before attempting to register this phone number', 400],
  133016: ['Account register deregister rate limit exceeded', 400],
  135000: ['Generic user error', 400],
};

const TRANSIENT = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 131057, 133004]);

export function whatsappErrorBody(code: number, details: string): Record<string, unknown> {
  const [title] = WHATSAPP_ERRORS[code] ?? ['Error', 400];
  return {
    error: {
      message: `(#${code}) ${title}`,
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details },
      is_transient: TRANSIENT.has(code),
      fbtrace_id: traces.opaque('trace', 27),
    },
  };
}

export function whatsappError(code: number, details: string): PlatformError {
  return new PlatformError(WHATSAPP_ERRORS[code]?.[1] ?? 400, whatsappErrorBody(code, details));
}

/** The `errors[]` item of a failed status webhook (§7.7). */
export function statusError(code: number, details: string): Record<string, unknown> {
  const [title] = WHATSAPP_ERRORS[code] ?? ['Error', 400];
  return { code, title, message: title, error_data: { details }, href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/' };
}
