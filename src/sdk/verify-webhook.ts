// Verifies a webhook delivery from this service. Self-contained (node:crypto only), so it can be
// copied into a receiver as it is. See README.md "Receiving webhooks".
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyInput {
  /** The endpoint's signing secret, as returned once by POST /webhooks. */
  secret: string;
  /** The raw request body, exactly as received (not re-serialized JSON). */
  body: string | Buffer;
  /** The X-SocialAPI-Timestamp header. */
  timestamp: string | undefined;
  /** The X-SocialAPI-Signature header. */
  signature: string | undefined;
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
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  return { ok: true };
}
