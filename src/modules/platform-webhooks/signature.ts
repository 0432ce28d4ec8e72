// X-Hub-Signature-256: `sha256=` + hex HMAC-SHA256 of the exact raw body with the app secret
// (platforms.md §8.2), compared in constant time.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

// Each app secret made a key object once: from a string, every HMAC would make it again, which
// cost about as much as hashing a body. The configured secrets are few and fixed.
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    if (keys.size >= 100) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

export function validSignature(header: string | undefined, body: Buffer, secrets: string[]): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  return secrets.some((secret) => timingSafeEqual(createHmac('sha256', keyOf(secret)).update(body).digest(), given));
}
