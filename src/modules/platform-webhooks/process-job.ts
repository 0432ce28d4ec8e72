// The `platform_event.process` job: turns a stored inbound Meta webhook into inbox events and the
// contract's comment.received / mention.received, message.* and WhatsApp events, in one
// transaction with marking the row. Once per platform event: the inbox row's unique (account,
// kind, platform id) decides, so a Meta retry (stored again when its bytes differ) or a second
// run of the same row emits nothing more. The handlers are the registry's (handlers.ts,
// inbound-handler.ts): each parses the body, then each records what it found. Kinds no handler
// lists leave the row `unhandled` with a note; the worker start re-runs those rows
// (rerun-job.ts), so a later handler picks them up.
import { Type } from 'typebox';
import type { AppDeps } from '../../deps.ts';
import type { PlatformWebhookStatus } from '../../db/schema.ts';
import { prepare } from '../../db/prepared.ts';
import { defineJob, jobKind, type JobContext } from '../../jobs/catalog.ts';
import { readEnvelope } from './envelope.ts';
import { INBOUND_HANDLERS } from './handlers.ts';
import { unhandledKinds, type PreparedInbound } from './inbound-handler.ts';

export { envelopeKinds } from './inbound-handler.ts';

export const platformEventProcess = jobKind('platform_event.process', Type.Object({ eventId: Type.String() }), { maxAttempts: 5 });

// Compiled once (db/prepared.ts): every stored platform event is read and marked.
const storedEvent = prepare((db, id: string) => db.selectFrom('platform_webhook_events').select(['body', 'status', 'received_at']).where('id', '=', id));
const markProcessed = prepare((db, status: PlatformWebhookStatus, note: string | null, now: number, id: string) =>
  db.updateTable('platform_webhook_events').set({ status, note, processed_at: now }).where('id', '=', id).where('status', '<>', 'processed'),
);

export function platformEventJob(deps: Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>) {
  return defineJob(platformEventProcess, {
    timeoutMs: 30_000,
    async run({ eventId }, context) {
      try {
        await processStored(deps, eventId, context);
      } catch (error) {
        // Out of attempts: the row goes back to `unhandled` with the reason, so the next worker
        // start runs it again (rerun-job.ts) instead of it waiting as `pending` for ever.
        if (context.attempt >= context.maxAttempts) await giveBack(deps, eventId, error);
        throw error;
      }
    },
  });
}

async function giveBack(deps: Pick<AppDeps, 'store' | 'clock'>, eventId: string, error: unknown): Promise<void> {
  const reason = error instanceof Error ? error.message : String(error);
  await deps.store.db
    .updateTable('platform_webhook_events')
    .set({ status: 'unhandled', note: `processing failed on every attempt, run again at the next worker start: ${reason.slice(0, 300)}`, processed_at: deps.clock.now() })
    .where('id', '=', eventId)
    .where('status', '=', 'pending')
    .execute();
}

async function processStored(deps: Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>, eventId: string, context: JobContext): Promise<void> {
  const { db } = deps.store;
  const [row] = (await storedEvent.execute(db, eventId)).rows;
  if (!row || row.status === 'processed') return;
  // Parsed once; each handler reads the same object (the raw text when it is not JSON).
  const body = readEnvelope(row.body) ?? row.body;
  // Platform reads first, outside the transaction, handler by handler.
  const prepared: PreparedInbound[] = [];
  for (const handler of INBOUND_HANDLERS) prepared.push(await handler.parse(body, { deps, eventId, attempt: context.attempt, maxAttempts: context.maxAttempts }));
  const unhandled = unhandledKinds(body, INBOUND_HANDLERS);
  const now = deps.clock.now();
  await db.transaction().execute(async (trx) => {
    let emitted = 0;
    for (const handled of prepared) emitted += await handled.record(trx, deps, row.received_at, now);
    const status = unhandled.length ? 'unhandled' : 'processed';
    const ignored = prepared.flatMap((handled) => handled.ignored);
    const note = [noteOf(unhandled, ignored, emitted), ...prepared.flatMap((handled) => handled.notes)].filter(Boolean).join('; ') || null;
    await markProcessed.execute(trx, status, note, now, eventId);
    await context.completeIn(trx);
  });
}

export function noteOf(unhandled: string[], ignored: string[], emitted: number): string | null {
  const parts = [
    ...(unhandled.length ? [`no handler yet for ${unhandled.join(', ')}`] : []),
    ...(ignored.length ? [`ignored: ${ignored.join(', ')}`] : []),
    ...(emitted ? [`${emitted} inbox event${emitted === 1 ? '' : 's'}`] : []),
  ];
  return parts.length ? parts.join('; ') : null;
}
