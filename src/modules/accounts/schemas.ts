// The Account resource as the API shows it. Tokens never leave the store.
import { Type, type Static } from 'typebox';
import type { AccountRow } from '../../db/schema.ts';
import { NullableTimestamp, Timestamp } from '../../http/schemas.ts';
import { PLATFORMS } from '../../platforms/registry.ts';

export { PLATFORMS } from '../../platforms/registry.ts';
export type { Platform } from '../../platforms/types.ts';

export const Account = Type.Object(
  {
    id: Type.String(),
    platform: Type.String({ enum: [...PLATFORMS] }),
    platformUserId: Type.String(),
    username: Type.Union([Type.String(), Type.Null()]),
    displayName: Type.Union([Type.String(), Type.Null()]),
    avatarUrl: Type.Union([Type.String(), Type.Null()]),
    externalId: Type.Union([Type.String(), Type.Null()], { description: "The client's own reference, up to 200 characters." }),
    status: Type.String({ enum: ['active', 'needs_reconnect'] }),
    approvalRequired: Type.Boolean(),
    connectedAt: Timestamp(),
    tokenExpiresAt: NullableTimestamp(),
  },
  { $id: 'Account', title: 'Account' },
);
export type Account = Static<typeof Account>;

const iso = (ms: number) => new Date(ms).toISOString();

export function presentAccount(row: AccountRow): Account {
  return {
    id: row.id,
    platform: row.platform,
    platformUserId: row.platform_user_id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    externalId: row.external_id,
    status: row.status,
    approvalRequired: row.approval_required === 1,
    connectedAt: iso(row.connected_at),
    tokenExpiresAt: row.token_expires_at === null ? null : iso(row.token_expires_at),
  };
}
