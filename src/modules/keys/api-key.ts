// The API key format: "sk_" + 32 random bytes in base62 (43 characters). Only its SHA-256 and a
// short display prefix are ever stored.
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43; // ceil(256 / log2(62))
export const KEY_PATTERN = /^sk_[0-9A-Za-z]{43}$/;

/** Bytes as a fixed-length base62 string (43 characters for 32 bytes); other secrets share the format. */
export function base62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = (BASE62[Number(value % 62n)] ?? '0') + out;
    value /= 62n;
  }
  return out.padStart(BODY_LENGTH, '0');
}

export function generateKey(): string {
  return `sk_${base62(randomBytes(32))}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, 11);
}
