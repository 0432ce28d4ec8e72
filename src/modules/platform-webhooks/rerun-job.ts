// `platform_event.rerun`: every worker start queues it (one at a time, de-duplicated), and it
// queues `platform_event.process` again for each stored webhook left `unhandled`: those stored
// before the inbox could read them, those carrying kinds whose handler came later, and those whose
// processing failed on every attempt (process-job.ts gives them back with the reason). A row
// whose kinds still have no handler stays `unhandled` (and is read again at the next start);
// a row processed meanwhile is skipped by the process job, and the inbox's unique index keeps
// a comment from emitting twice whichever run gets there first.
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppDeps } from '../../deps.ts';
import type { PlatformWebhookStatus } from '../../db/schema.ts';
import { defineJob, jobKind } from '../../jobs/catalog.ts';
import { enqueue } from '../../jobs/queue.ts';
import { platformEventProcess } from './process-job.ts';

export const platformEventRerun = jobKind('platform_event.rerun', Type.Object({}), { maxAttempts: 3 });

// A literal, so the partial index platform_webhook_events_unhandled serves the query.
const UNHANDLED = sql.lit<PlatformWebhookStatus>('unhandled');
const BATCH = 200;

export async function queueUnhandledRerun(deps: Pick<AppDeps, 'store' | 'clock'>): Promise<void> {
  await enqueue(deps.store.db, deps.store, deps.clock.now(), platformEventRerun, {}, { dedupeKey: platformEventRerun.kind });
}

export function platformEventRerunJob(deps: Pick<AppDeps, 'store' | 'clock'>) {
  return defineJob(platformEventRerun, {
    timeoutMs: 60_000,
    async run() {
      const { db } = deps.store;
      const rows = await db.selectFrom('platform_webhook_events').select('id').where('status', '=', UNHANDLED).orderBy('received_at').execute();
      for (let i = 0; i < rows.length; i += BATCH) {
        const now = deps.clock.now();
        await db.transaction().execute(async (trx) => {
          for (const { id } of rows.slice(i, i + BATCH)) {
            await enqueue(trx, deps.store, now, platformEventProcess, { eventId: id }, { dedupeKey: `${platformEventProcess.kind}:${id}` });
          }
        });
      }
    },
  });
}
