// Idempotency of POST /posts through `x-request-id` (DESIGN §2 Posts), kept 24 hours per
// organization. The key's row is inserted first, in its own short transaction, so that of two
// concurrent requests exactly one inserts it (the primary key decides, on both stores); the
// other sees it and answers 409 REQUEST_IN_PROGRESS, or replays once the first has finished.
// The row is marked done in the same transaction that creates the post; a request that fails
// (400 …) removes it, so the key can be used again with a corrected body.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { apiError } from '../../http/errors.ts';
import { canonicalHash } from '../../lib/canonical-hash.ts';

export const KEY_TTL_MS = 24 * 3600_000;
/** A 'running' row older than this belongs to a request that died; the key may be taken over. */
export const ABANDONED_AFTER_MS = 5 * 60_000;

export type Claim = { kind: 'claimed' } | { kind: 'replay'; postId: string };

/** SHA-256 of the body with object keys sorted, so key order does not matter. */
export const bodyHash = (body: unknown): string => canonicalHash(body);

export async function claimRequest(db: Kysely<Database>, organizationId: string, key: string, hash: string, now: number): Promise<Claim> {
  return db.transaction().execute(async (trx) => {
    // An expired key, or one whose request died, is free again.
    await trx
      .deleteFrom('post_requests')
      .where('organization_id', '=', organizationId)
      .where('key', '=', key)
      .where((eb) => eb.or([eb('created_at', '<=', now - KEY_TTL_MS), eb.and([eb('status', '=', 'running'), eb('created_at', '<=', now - ABANDONED_AFTER_MS)])]))
      .execute();
    const inserted = await trx
      .insertInto('post_requests')
      .values({ organization_id: organizationId, key, body_hash: hash, status: 'running', post_id: null, created_at: now })
      .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 1n) return { kind: 'claimed' } as const;
    const row = await trx.selectFrom('post_requests').selectAll().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
    if (!row) throw apiError('REQUEST_IN_PROGRESS', 'A request with this x-request-id is in progress');
    if (row.body_hash !== hash) throw apiError('IDEMPOTENCY_KEY_REUSED', 'This x-request-id was used with another body in the last 24 hours');
    if (row.status === 'running' || row.post_id === null) throw apiError('REQUEST_IN_PROGRESS', 'A request with this x-request-id is in progress');
    return { kind: 'replay', postId: row.post_id } as const;
  });
}

/** Marks the key done, inside the transaction that created the post. */
export async function finishRequest(trx: Kysely<Database>, organizationId: string, key: string, postId: string): Promise<void> {
  await trx.updateTable('post_requests').set({ status: 'done', post_id: postId }).where('organization_id', '=', organizationId).where('key', '=', key).execute();
}

/** Frees the key after a failed request. */
export async function releaseRequest(db: Kysely<Database>, organizationId: string, key: string): Promise<void> {
  await db.deleteFrom('post_requests').where('organization_id', '=', organizationId).where('key', '=', key).where('status', '=', 'running').execute();
}
