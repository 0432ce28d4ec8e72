// Pending connections: a consent that yielded several choices (Pages, Instagram accounts). The
// user token that resolves them is kept sealed and never shown; the pending connection answers
// 410 pending_expired after 30 minutes or once completed.
import { Type, type Static } from 'typebox';
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { Database, PendingConnectionRow } from '../../db/schema.ts';
import { apiError } from '../../http/errors.ts';
import { Timestamp } from '../../http/schemas.ts';
import type { Sealer } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import type { ConnectOption, TokenSet } from '../../platforms/types.ts';
import { emitEvent } from '../events/emit.ts';

export const PENDING_TTL_MS = 30 * 60_000;

export const PendingOption = Type.Object({
  id: Type.String({ description: 'The id to pass in optionIds (the platform id of the Page or account).' }),
  name: Type.String(),
  kind: Type.String({ description: 'page or instagram_account.' }),
  username: Type.Union([Type.String(), Type.Null()]),
  pictureUrl: Type.Union([Type.String(), Type.Null()]),
});

export const Pending = Type.Object(
  {
    id: Type.String(),
    platform: Type.String(),
    externalId: Type.Union([Type.String(), Type.Null()]),
    options: Type.Array(PendingOption),
    optionCount: Type.Integer(),
    createdAt: Timestamp(),
    expiresAt: Timestamp(),
  },
  { $id: 'PendingConnection', title: 'PendingConnection' },
);
export type Pending = Static<typeof Pending>;
type Option = Static<typeof PendingOption>;

export function optionsOf(row: PendingConnectionRow): Option[] {
  return JSON.parse(row.options) as Option[];
}

export function presentPending(row: PendingConnectionRow): Pending {
  const options = optionsOf(row);
  return {
    id: row.id,
    platform: row.platform,
    externalId: row.external_id,
    options,
    optionCount: options.length,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

export function assertOpen(row: PendingConnectionRow, now: number): void {
  if (row.completed_at !== null) throw apiError('pending_expired', 'This pending connection was already completed');
  if (row.expires_at <= now) throw apiError('pending_expired', 'This pending connection has expired; connect again');
}

export interface NewPending {
  organizationId: string;
  platform: string;
  flavour: string;
  externalId: string | null;
  redirectUrl: string | null;
  userToken: TokenSet;
  options: ConnectOption[];
  now: number;
}

/**
 * The consent's token set kept with a pending connection (sealed JSON). Rows stored before the
 * whole set was kept hold the access token alone.
 */
export function pendingToken(opened: string): TokenSet {
  if (!opened.startsWith('{')) return { accessToken: opened, refreshToken: null, expiresAt: null, scopes: [] };
  const stored = JSON.parse(opened) as TokenSet;
  return { accessToken: stored.accessToken, refreshToken: stored.refreshToken ?? null, expiresAt: stored.expiresAt ?? null, scopes: stored.scopes ?? [], refreshExpiresAt: stored.refreshExpiresAt ?? null };
}

/** Records the pending connection and emits connection.pending, in the caller's transaction. */
export async function createPending(trx: Kysely<Database>, store: Pick<Store, 'caps'>, sealer: Sealer, input: NewPending): Promise<string> {
  const id = newId('pending', input.now);
  const expiresAt = input.now + PENDING_TTL_MS;
  const options: Option[] = input.options.map((o) => ({ id: o.id, name: o.name, kind: o.kind, username: o.username ?? null, pictureUrl: o.pictureUrl ?? null }));
  await trx
    .insertInto('pending_connections')
    .values({
      id,
      organization_id: input.organizationId,
      platform: input.platform,
      flavour: input.flavour,
      external_id: input.externalId,
      redirect_url: input.redirectUrl,
      user_token_enc: sealer.seal(JSON.stringify(input.userToken)),
      options: JSON.stringify(options),
      created_at: input.now,
      expires_at: expiresAt,
      completed_at: null,
    })
    .execute();
  await emitEvent({ db: trx, store, now: input.now }, input.organizationId, 'connection.pending', {
    pendingId: id,
    platform: input.platform,
    externalId: input.externalId,
    optionCount: options.length,
    expiresAt: new Date(expiresAt).toISOString(),
  });
  return id;
}
