// The Send API's refusals (platforms.md §2.8, §3.3), by code and subcode, read before the Graph
// table (meta/errors.ts): a closed window and a person who cannot be reached are their own
// answers (409 outside_messaging_window, 409 recipient_unavailable), where the Graph table alone
// would call code 10 a missing permission and 551 a platform error. Everything else keeps its
// Graph kind: 10 or 200 without these subcodes is a permission, 190 a token, 4/613 a rate limit.
import { PlatformError, type PlatformErrorKind } from '../errors.ts';

interface Row {
  code: number;
  /** null: any subcode of the code. */
  subcode: number | null;
  kind: PlatformErrorKind;
  text: string;
}

export const MESSAGING_ERRORS: readonly Row[] = [
  { code: 10, subcode: 2018278, kind: 'outside_window', text: 'the message is outside the 24-hour window' },
  { code: 10, subcode: 2534022, kind: 'outside_window', text: 'the message is outside the allowed window' },
  { code: 10, subcode: 2018065, kind: 'outside_window', text: 'the message is outside the window' },
  { code: 10, subcode: 2018108, kind: 'recipient_unavailable', text: "the person can't receive messages right now" },
  { code: 10, subcode: 1893063, kind: 'permanent', text: 'the Page is temporarily restricted from messaging' },
  { code: 100, subcode: 2018001, kind: 'recipient_unavailable', text: 'no matching person' },
  { code: 100, subcode: 2534014, kind: 'recipient_unavailable', text: 'no matching Instagram user' },
  { code: 200, subcode: 1545041, kind: 'recipient_unavailable', text: 'the person is not available' },
  { code: 551, subcode: null, kind: 'recipient_unavailable', text: "the person isn't receiving messages from the account" },
  { code: 2018300, subcode: null, kind: 'recipient_unavailable', text: 'another app controls the conversation' },
];

/** The messaging row of a Graph failure, or the failure as the Graph table classified it. */
export function messagingError(error: PlatformError): PlatformError {
  const code = typeof error.details.code === 'number' ? error.details.code : null;
  const subcode = typeof error.details.subcode === 'number' ? error.details.subcode : null;
  const row = MESSAGING_ERRORS.find((r) => r.code === code && (r.subcode === null || r.subcode === subcode));
  if (!row || error.kind === 'auth') return error;
  return new PlatformError(row.kind, `${row.text} (${error.message})`, error.details);
}

/** Runs a messaging call, its failures read through MESSAGING_ERRORS. */
export async function withMessagingErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof PlatformError ? messagingError(error) : error;
  }
}
