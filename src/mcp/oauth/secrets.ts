// The secrets of the MCP authorization flow: authorization codes, access tokens and refresh
// tokens, each a prefix and 32 random bytes in base62 like API keys, so a leaked one is
// recognisable by its prefix (and by secret scanners). Only their SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';
import { base62 } from '../../modules/keys/api-key.ts';

export const ACCESS_PREFIX = 'mcp_at_';
export const REFRESH_PREFIX = 'mcp_rt_';
export const CODE_PREFIX = 'mcp_ac_';

export type SecretPrefix = typeof ACCESS_PREFIX | typeof REFRESH_PREFIX | typeof CODE_PREFIX;

const BODY = /^[0-9A-Za-z]{43}$/;

export function newSecret(prefix: SecretPrefix): string {
  return `${prefix}${base62(randomBytes(32))}`;
}

/** Whether `value` has the exact shape of a secret of this kind (checked before any lookup). */
export function hasShape(prefix: SecretPrefix, value: string): boolean {
  return value.startsWith(prefix) && BODY.test(value.slice(prefix.length));
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
