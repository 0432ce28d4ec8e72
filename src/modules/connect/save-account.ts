// Stores a connected account: inserted, or updated in place when the organization already has
// this platform user (same id, status back to active, fresh tokens), with account.connected and
// the token's refresh job in the same transaction.
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import type { Sealer } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import type { ConnectedAccount } from '../../platforms/types.ts';
import { accountName } from '../accounts/credentials.ts';
import { scheduleRefresh } from '../accounts/refresh-schedule.ts';
import { emitEvent } from '../events/emit.ts';

export interface SaveAccountInput {
  organizationId: string;
  platform: string;
  flavour: string;
  /** Set on the account when given; a reconnect without one keeps the account's own. */
  externalId: string | null;
  account: ConnectedAccount;
  /** Whether the platform refreshes tokens (a refresh job is queued before expiry). */
  refreshable: boolean;
  now: number;
}

export async function saveConnectedAccount(trx: Kysely<Database>, store: Pick<Store, 'caps'>, sealer: Sealer, input: SaveAccountInput): Promise<AccountRow> {
  const { profile, token } = input.account;
  const { now } = input;
  const fields = {
    username: profile.username,
    display_name: profile.displayName,
    avatar_url: profile.avatarUrl,
    status: 'active' as const,
    access_token_enc: sealer.seal(token.accessToken),
    refresh_token_enc: token.refreshToken ? sealer.seal(token.refreshToken) : null,
    token_expires_at: token.expiresAt,
    scopes: token.scopes.join(','),
    metadata: JSON.stringify({ login: input.flavour, ...profile.metadata, ...(profile.tokenGroup !== undefined ? { tokenGroup: profile.tokenGroup } : {}) }),
    connected_at: now,
    updated_at: now,
  };
  await trx
    .insertInto('accounts')
    .values({
      id: newId('account', now),
      organization_id: input.organizationId,
      platform: input.platform,
      platform_user_id: profile.platformUserId,
      external_id: input.externalId,
      approval_required: 0,
      ...fields,
    })
    // The unique (organization, platform, platform user) index makes a reconnect an update of
    // the same row, also when two callbacks for the same person race.
    .onConflict((oc) =>
      oc.columns(['organization_id', 'platform', 'platform_user_id']).doUpdateSet(input.externalId !== null ? { ...fields, external_id: input.externalId } : fields),
    )
    .execute();
  const row = await trx
    .selectFrom('accounts')
    .selectAll()
    .where('organization_id', '=', input.organizationId)
    .where('platform', '=', input.platform)
    .where('platform_user_id', '=', profile.platformUserId)
    .executeTakeFirstOrThrow();
  await trx.deleteFrom('account_health').where('account_id', '=', row.id).execute();
  if (input.account.userToken) {
    // facebook: the person's user token, for ads (the Marketing API does not take Page tokens).
    const user = input.account.userToken;
    const sealed = { token_enc: sealer.seal(user.accessToken), expires_at: user.expiresAt, scopes: user.scopes.join(','), updated_at: now };
    await trx
      .insertInto('account_user_tokens')
      .values({ account_id: row.id, organization_id: row.organization_id, ...sealed })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(sealed))
      .execute();
  }
  if (profile.tokenGroup !== undefined) await updateTokenGroup(trx, store, input, row.id, profile.tokenGroup, fields);
  await emitEvent({ db: trx, store, now }, input.organizationId, 'account.connected', {
    accountId: row.id,
    platform: row.platform,
    accountName: accountName(row),
    externalId: row.external_id,
  });
  if (input.refreshable && token.expiresAt !== null) await scheduleRefresh(trx, store, now, row.id, token.expiresAt);
  return row;
}

/**
 * The other accounts of the organization that act with the same platform token (the group kept in
 * their metadata) get the new token, its expiry and scopes, and their refresh is scheduled again.
 */
async function updateTokenGroup(
  trx: Kysely<Database>,
  store: Pick<Store, 'caps'>,
  input: SaveAccountInput,
  savedId: string,
  group: string,
  fields: { access_token_enc: string; refresh_token_enc: string | null; token_expires_at: number | null; scopes: string; updated_at: number },
): Promise<void> {
  const rows = await trx.selectFrom('accounts').select(['id', 'metadata']).where('organization_id', '=', input.organizationId).where('platform', '=', input.platform).where('id', '!=', savedId).execute();
  const siblings = rows.filter((r) => (JSON.parse(r.metadata) as { tokenGroup?: unknown }).tokenGroup === group).map((r) => r.id);
  if (!siblings.length) return;
  const { access_token_enc, refresh_token_enc, token_expires_at, scopes, updated_at } = fields;
  await trx.updateTable('accounts').set({ access_token_enc, refresh_token_enc, token_expires_at, scopes, updated_at }).where('id', 'in', siblings).execute();
  if (input.refreshable && token_expires_at !== null) for (const id of siblings) await scheduleRefresh(trx, store, input.now, id, token_expires_at);
}
