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

export function credentialsOf(row: AccountRow, sealer: Sealer): AccountCredentials {
  return {
    platformUserId: row.platform_user_id,
    accessToken: row.access_token_enc ? sealer.open(row.access_token_enc) : '',
    refreshToken: row.refresh_token_enc ? sealer.open(row.refresh_token_enc) : null,
    expiresAt: row.token_expires_at,
    scopes: row.scopes.split(/[\s,]+/).filter(Boolean),
    metadata: parseMetadata(row.metadata),
  };
}

/** The name events carry for an account. */
export const accountName = (row: Pick<AccountRow, 'username' | 'display_name'>): string | null => row.username ?? row.display_name;
