// Meta's webhook signature (platforms.md §8.2): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256
// of the raw body, keyed with the app secret>`, and the legacy SHA-1 `X-Hub-Signature`.
import { createHmac } from 'node:crypto';

export function signatureHeaders(rawBody: string | Buffer, appSecret: string): Record<string, string> {
  return {
    'x-hub-signature-256': `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`,
    'x-hub-signature': `sha1=${createHmac('sha1', appSecret).update(rawBody).digest('hex')}`,
  };
}

/**
 * Meta escapes non-ASCII characters and `/` in webhook bodies (`\u00e9`, `\/`), and receivers
 * must sign those exact bytes, not a re-serialisation (§8.2). The sandbox writes bodies the same
 * way so a receiver that re-serialises fails here too.
 */
export function metaJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
