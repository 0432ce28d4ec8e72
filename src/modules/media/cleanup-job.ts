// media.cleanup: removes media that no post has referenced for MEDIA_RETENTION_MS (30 days), and
// local upload leftovers of a crashed process. Sweeps are scheduled by scheduleCleanup (one per
// day that has media falling due), not by a timer, so any number of workers may run them.
import { Type } from 'typebox';
import type { AppDeps } from '../../deps.ts';
import { defineJob, jobKind } from '../../jobs/catalog.ts';
import { localMediaStore, mediaStore } from '../../storage/index.ts';
import type { MediaStorage } from '../../db/schema.ts';

export const MEDIA_RETENTION_MS = 30 * 86_400_000;
/** A .partial/ file this old belongs to no upload still running. */
const PARTIAL_MAX_AGE_MS = 86_400_000;
const BATCH = 100;

export const mediaCleanup = jobKind('media.cleanup', Type.Object({}), { maxAttempts: 5 });

export function mediaCleanupJob(deps: AppDeps) {
  return defineJob(mediaCleanup, {
    timeoutMs: 10 * 60_000,
    async run(_payload, context) {
      const { config, clock } = deps;
      const now = clock.now();
      const cutoff = now - MEDIA_RETENTION_MS;
      // Rows whose store is no longer configured (S3 switched off) are left alone, not orphaned.
      const storages: MediaStorage[] = [...new Set<MediaStorage>(['local', mediaStore(config).kind])];
      let removed = 0;
      for (;;) {
        if (context.signal.aborted) return;
        const rows = await context.db
          .selectFrom('media')
          .select(['id', 'storage', 'storage_key'])
          .where('post_id', 'is', null)
          .where('unreferenced_since', '<=', cutoff)
          .where('storage', 'in', storages)
          .orderBy('unreferenced_since')
          .limit(BATCH)
          .execute();
        for (const row of rows) {
          // The row goes only if it is still unreferenced, and only together with its bytes: a
          // failed delete in the store rolls the row back, so the next sweep tries again.
          await context.db.transaction().execute(async (trx) => {
            const deleted = await trx
              .deleteFrom('media')
              .where('id', '=', row.id)
              .where('post_id', 'is', null)
              .where('unreferenced_since', '<=', cutoff)
              .executeTakeFirst();
            if (deleted.numDeletedRows === 0n) return;
            await (row.storage === 'local' ? localMediaStore(config) : mediaStore(config)).delete(row.storage_key);
            removed++;
          });
        }
        if (rows.length < BATCH) break;
      }
      const partials = await localMediaStore(config).sweepPartials(now, PARTIAL_MAX_AGE_MS);
      context.log.info({ removed, partials }, 'media cleanup done');
    },
  });
}
