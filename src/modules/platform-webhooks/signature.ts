// X-Hub-Signature-256: `sha256=` + hex HMAC-SHA256 of the exact raw body with the app secret
// (platforms.md §8.2), compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function validSignature(header: string | undefined, body: Buffer, secrets: string[]): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  return secrets.some((secret) => timingSafeEqual(createHmac('sha256', secret).update(body).digest(), given));
}
