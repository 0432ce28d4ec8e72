// Webhook deliveries, typed and verified. The service signs each delivery's raw body:
// X-SocialAPI-Signature is the hex HMAC-SHA256 of "<X-SocialAPI-Timestamp>.<body>" with the
// endpoint's secret; for 24 hours after a secret rotation X-SocialAPI-Signature-Previous carries
// the one made with the replaced secret. A delivery older than the tolerance (300 s) is refused,
// so a captured one cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { EVENT_TYPES, type WebhookEvent } from './generated/operations.ts';

export type { WebhookEvent };
export type EventType = WebhookEvent['event'];
/** The body of one event type: `EventOf<'post.published'>`. */
export type EventOf<E extends EventType> = Extract<WebhookEvent, { event: E }>;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: 'missing_headers' | 'stale_timestamp' | 'bad_signature' | 'unknown_event';
  constructor(code: WebhookVerificationError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

export interface WebhookInput {
  /** The raw body, exactly as received (not re-serialized JSON). */
  body: string | Uint8Array;
  /** The request's headers (Node's IncomingHttpHeaders, a Headers object or a plain record). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The endpoint's secret (whsec_…); during a rotation, the old and the new one. */
  secret: string | readonly string[];
  /** Seconds of clock difference accepted (300). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). */
  now?: number;
}

function header(headers: WebhookInput['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

const hmac = (secret: string, timestamp: string, body: string | Uint8Array) => createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

function matches(given: string | undefined, expected: Buffer): boolean {
  if (!given || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

/** Verifies a delivery and answers its event, typed by `event`; throws WebhookVerificationError. */
export function verifyWebhook(input: WebhookInput): WebhookEvent {
  const timestamp = header(input.headers, 'x-socialapi-timestamp');
  const signatures = [header(input.headers, 'x-socialapi-signature'), header(input.headers, 'x-socialapi-signature-previous')];
  if (!timestamp || !/^\d+$/.test(timestamp) || !signatures[0]) throw new WebhookVerificationError('missing_headers', 'X-SocialAPI-Timestamp and X-SocialAPI-Signature are required');
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? 300)) throw new WebhookVerificationError('stale_timestamp', 'the delivery is older than the tolerance');
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  const ok = secrets.some((secret) => {
    const expected = hmac(secret, timestamp, input.body);
    return signatures.some((given) => matches(given, expected));
  });
  if (!ok) throw new WebhookVerificationError('bad_signature', 'the signature does not match the secret');
  const text = typeof input.body === 'string' ? input.body : Buffer.from(input.body).toString('utf8');
  const event = JSON.parse(text) as WebhookEvent;
  if (!(EVENT_TYPES as readonly string[]).includes(event.event)) throw new WebhookVerificationError('unknown_event', `unknown event ${String(event.event)}`);
  return event;
}
