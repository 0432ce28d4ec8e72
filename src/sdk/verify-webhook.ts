// Verifies a webhook delivery from this service. Self-contained (node:crypto only), so it can be
// copied into a receiver as it is. See README.md "Receiving webhooks".
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyInput {
  /** The endpoint's signing secret, as returned once by POST /webhooks (or by a rotation). */
  secret: string;
  /** The raw request body, exactly as received (not re-serialized JSON). */
  body: string | Buffer;
  /** The X-SocialAPI-Timestamp header. */
  timestamp: string | undefined;
  /** The X-SocialAPI-Signature header. */
  signature: string | undefined;
  /**
   * The X-SocialAPI-Signature-Previous header. For 24 hours after POST /webhooks/{id}/secret
   * deliveries carry it, made with the secret the rotation replaced: pass it, and a receiver still
   * holding that secret keeps accepting deliveries until it has the new one.
   */
  previousSignature?: string | undefined;
  /** Seconds of clock difference accepted; the contract says 300. */
  toleranceSeconds?: number;
  /** Current time in milliseconds (tests). */
  now?: number;
}

export type VerifyResult = { ok: true } | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' };

export function signPayload(secret: string, timestamp: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function verifyWebhook(input: VerifyInput): VerifyResult {
  const { secret, body, timestamp, signature } = input;
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return { ok: false, reason: 'missing_headers' };
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return { ok: false, reason: 'stale_timestamp' };
  const expected = Buffer.from(signPayload(secret, timestamp, body), 'hex');
  // Either header may carry the HMAC made with this secret; both are compared, in constant time.
  const matches = [signature, input.previousSignature].map((given) => given !== undefined && sameHex(given, expected));
  if (!matches.includes(true)) return { ok: false, reason: 'bad_signature' };
  return { ok: true };
}

function sameHex(given: string, expected: Buffer): boolean {
  const bytes = /^[0-9a-f]{64}$/.test(given) ? Buffer.from(given, 'hex') : Buffer.alloc(0);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
