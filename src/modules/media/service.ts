// Media records: created after an upload is stored, tied to the post that uses them, and swept
// by media.cleanup once no post has referenced them for MEDIA_RETENTION_MS.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Store } from '../../db/database.ts';
import type { Database, MediaRow } from '../../db/schema.ts';
import { tenantScope } from '../../db/tenant.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueDailySweep, midnightAfter } from '../../jobs/queue.ts';
import { storeFor } from '../../storage/index.ts';
import { mediaCleanup, MEDIA_RETENTION_MS } from './cleanup-job.ts';
import { discardUpload, type StoredUpload } from './ingest.ts';

/**
 * Makes sure a media.cleanup sweep runs once media unreferenced since `since` is due for removal:
 * one sweep per UTC day, at the first midnight after the deadline (a dedupe key per day keeps it
 * to one job however many uploads that day had). Call inside the transaction of the change.
 */
export async function scheduleCleanup(db: Kysely<Database>, store: Pick<Store, 'caps'>, now: number, since: number): Promise<void> {
  await enqueueDailySweep(db, store, now, mediaCleanup, midnightAfter(since + MEDIA_RETENTION_MS));
}

/** Records a stored upload for the organization; if that fails, the stored bytes are removed. */
export async function recordMedia(deps: AppDeps, organizationId: string, stored: StoredUpload, fileName: string): Promise<MediaRow> {
  const now = deps.clock.now();
  const row: MediaRow = {
    id: newId('media', now),
    organization_id: organizationId,
    post_id: null,
    file_name: fileName,
    mime_type: stored.type,
    size: stored.size,
    storage: stored.storage,
    storage_key: stored.key,
    created_at: now,
    unreferenced_since: now,
  };
  try {
    await deps.store.db.transaction().execute(async (trx) => {
      await trx.insertInto('media').values(row).execute();
      await scheduleCleanup(trx, deps.store, now, now);
    });
  } catch (error) {
    await discardUpload(deps.config, stored).catch(() => undefined);
    throw error;
  }
  return row;
}

/** The storage key a URL would name, if it looks like one of ours (its last path segment). */
function keyOf(url: string): string | null {
  try {
    return new URL(url).pathname.split('/').pop() || null;
  } catch {
    return null;
  }
}

/**
 * For the posts service: marks the organization's media whose publicUrl is one of `urls` as used
 * by `postId` (the last post to use a media wins), so media.cleanup keeps them. Call inside the
 * transaction that stores the post. Returns the ids of the media it marked.
 */
export async function attachMediaToPost(
  db: Kysely<Database>,
  config: Config,
  organizationId: string,
  postId: string,
  urls: readonly string[],
): Promise<string[]> {
  const wanted = new Set(urls);
  const keys = [...new Set(urls.map(keyOf).filter((key): key is string => key !== null))];
  if (keys.length === 0) return [];
  const tenant = tenantScope(db, organizationId);
  const rows = await tenant.selectFrom('media').select(['id', 'storage', 'storage_key']).where('storage_key', 'in', keys).execute();
  const ids = rows.filter((row) => {
    const url = storeFor(config, row.storage)?.publicUrl(row.storage_key);
    return url !== null && url !== undefined && wanted.has(url);
  }).map((row) => row.id);
  if (ids.length === 0) return [];
  await tenant.updateTable('media').set({ post_id: postId, unreferenced_since: null }).where('id', 'in', ids).execute();
  return ids;
}

/**
 * For the posts service, when a post is deleted: its media are no longer referenced from now on
 * and will be removed MEDIA_RETENTION_MS later unless another post uses them. Call inside the
 * transaction that deletes the post.
 */
export async function releaseMediaOfPost(db: Kysely<Database>, store: Pick<Store, 'caps'>, organizationId: string, postId: string, now: number): Promise<number> {
  const result = await tenantScope(db, organizationId)
    .updateTable('media')
    .set({ post_id: null, unreferenced_since: now })
    .where('post_id', '=', postId)
    .executeTakeFirst();
  const released = Number(result.numUpdatedRows);
  if (released > 0) await scheduleCleanup(db, store, now, now);
  return released;
}
