// Platform tokens at rest: AES-256-GCM with a random 96-bit nonce per value. The sealed form is
// "v1.<nonce>.<ciphertext+tag>" in base64url, so a future key rotation can add "v2".
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  return {
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${nonce.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed) {
      const [version, nonceText, bodyText] = sealed.split('.');
      if (version !== 'v1' || !nonceText || !bodyText) throw new Error('not a sealed value');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonceText, 'base64url'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}

export const ENCRYPTION_KEY_FILE = 'encryption.key';

/**
 * The configured key, or the one kept in the data folder, generated there on first start.
 * Several nodes sharing one PostgreSQL must all be given the same ENCRYPTION_KEY instead.
 */
export function resolveEncryptionKey(configured: Buffer | null, dataDir: string): { key: Buffer; generated: boolean } {
  if (configured) return { key: configured, generated: false };
  const file = join(dataDir, ENCRYPTION_KEY_FILE);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return { key, generated: false };
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { key, generated: true };
}
