// API keys: created, listed, revoked and rotated by the operator CLI; looked up on every request.
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import { prepare } from '../../db/prepared.ts';
import type { ApiKeyRow, Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { displayPrefix, generateKey, hashKey, KEY_PATTERN } from './api-key.ts';
import { keysChanged, type Caller, type CallerCache } from './caller-cache.ts';

export type { Caller };

export interface CreatedKey {
  row: ApiKeyRow;
  /** The key itself: shown once, never stored. */
  key: string;
}

export interface KeyOptions {
  name?: string;
  rateLimit?: number | null;
  approvalRequired?: boolean;
}

export async function createKey(
  db: Kysely<Database>,
  clock: Clock,
  organizationId: string,
  options: KeyOptions = {},
): Promise<CreatedKey> {
  const key = generateKey();
  const row: ApiKeyRow = {
    id: newId('apiKey', clock.now()),
    organization_id: organizationId,
    name: options.name ?? 'default',
    key_hash: hashKey(key),
    prefix: displayPrefix(key),
    rate_limit: options.rateLimit ?? null,
    approval_required: options.approvalRequired ? 1 : 0,
    created_at: clock.now(),
    revoked_at: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { row, key };
}

export function listKeys(db: Kysely<Database>, organizationId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
}

function markRevoked(db: Kysely<Database>, clock: Clock, keyId: string) {
  return db.updateTable('api_keys').set({ revoked_at: clock.now() }).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Revokes a key; false when there is no such active key. Every node refuses it from then on. */
export async function revokeKey(store: Pick<Store, 'db' | 'notices'>, clock: Clock, keyId: string): Promise<boolean> {
  const result = await markRevoked(store.db, clock, keyId);
  if (result.numUpdatedRows === 0n) return false;
  await keysChanged(store);
  return true;
}

/** Issues a new key with the same organization and settings, and revokes the old one, atomically. */
export async function rotateKey(store: Pick<Store, 'db' | 'notices'>, clock: Clock, keyId: string): Promise<CreatedKey | null> {
  const created = await store.db.transaction().execute(async (trx) => {
    const old = await trx.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
    if (!old) return null;
    await markRevoked(trx, clock, keyId);
    return createKey(trx, clock, old.organization_id, {
      name: old.name,
      rateLimit: old.rate_limit,
      approvalRequired: old.approval_required === 1,
    });
  });
  if (created) await keysChanged(store);
  return created;
}

function callerQuery(db: Kysely<Database>, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('organizations', 'organizations.id', 'api_keys.organization_id')
    .select([
      'api_keys.id as keyId',
      'api_keys.organization_id as organizationId',
      'api_keys.rate_limit as rateLimit',
      'api_keys.approval_required as keyApproval',
      'api_keys.revoked_at as revokedAt',
      'organizations.approval_required as orgApproval',
    ])
    .where('api_keys.key_hash', '=', keyHash);
}

// Runs on every request whose key is not in the cache; compiled once (see db/prepared.ts).
const findCaller = prepare(callerQuery);

/** The caller behind a key, or null for a malformed, unknown or revoked key. */
export async function authenticate(db: Kysely<Database>, key: string, cache: CallerCache | null = null): Promise<Caller | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const keyHash = hashKey(key);
  const remembered = cache?.get(keyHash);
  if (remembered) return remembered;
  const generation = cache?.generation() ?? 0;
  const row = (await findCaller.execute(db, keyHash)).rows[0];
  if (!row || row.revokedAt !== null) return null;
  const caller: Caller = {
    keyId: row.keyId,
    organizationId: row.organizationId,
    rateLimit: row.rateLimit,
    approvalRequired: row.keyApproval === 1 || row.orgApproval === 1,
  };
  cache?.set(keyHash, caller, generation);
  return caller;
}
