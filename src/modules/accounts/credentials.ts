// An account row's credentials as adapters take them: tokens opened from their sealed form.
import type { AccountRow } from '../../db/schema.ts';
import type { Sealer } from '../../lib/crypto.ts';
import type { AccountCredentials } from '../../platforms/types.ts';

export function parseMetadata(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Tokens opened once per process and sealer: a send opened its account's token once or twice,
 * and opening (AES-GCM, a decipher made per call) cost more than the rest of the check. Keyed by
 * the sealed value, which a new token (refresh, reconnect) replaces, so no stale plain text is
 * ever used; bounded, cleared when full.
 */
const OPENED_TOKENS = 1000;
const openedBySealer = new WeakMap<Sealer, Map<string, string>>();
function openToken(sealer: Sealer, sealed: string): string {
  let opened = openedBySealer.get(sealer);
  if (!opened) {
    opened = new Map();
    openedBySealer.set(sealer, opened);
  }
  let plain = opened.get(sealed);
  if (plain === undefined) {
    plain = sealer.open(sealed);
    if (opened.size >= OPENED_TOKENS) opened.clear();
    opened.set(sealed, plain);
  }
  return plain;
}

export function credentialsOf(row: AccountRow, sealer: Sealer): AccountCredentials {
  return {
    platformUserId: row.platform_user_id,
    accessToken: row.access_token_enc ? openToken(sealer, row.access_token_enc) : '',
    refreshToken: row.refresh_token_enc ? openToken(sealer, row.refresh_token_enc) : null,
    expiresAt: row.token_expires_at,
    scopes: row.scopes.split(/[\s,]+/).filter(Boolean),
    metadata: parseMetadata(row.metadata),
  };
}

/** The name events carry for an account. */
export const accountName = (row: Pick<AccountRow, 'username' | 'display_name'>): string | null => row.username ?? row.display_name;
