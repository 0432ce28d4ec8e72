// The `platform_event.process` job: turns a stored inbound Meta webhook into inbox events and the
// contract's comment.received / mention.received, in one transaction with marking the row.
// Once per platform event: the inbox row's unique (account, kind, platform id) decides, so a Meta
// retry (stored again when its bytes differ) or a second run of the same row emits nothing more.
// Messaging items are messaging-handler.ts's; WhatsApp template and number quality changes are
// whatsapp/account-events.ts's, WhatsApp messages and statuses whatsapp/inbound-messages.ts's.
// Kinds without a handler leave the row `unhandled` with a note; the
// worker start re-runs those rows (rerun-job.ts), so a later handler picks them up.
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { Database, PlatformWebhookStatus } from '../../db/schema.ts';
import { prepare } from '../../db/prepared.ts';
import { defineJob, jobKind, type JobContext } from '../../jobs/catalog.ts';
import { recordInboundComment } from '../inbox/record.ts';
import { fillMentions } from './mention-details.ts';
import { prepareMessaging, recordMessaging, withoutMessaging } from './messaging-handler.ts';
import { readEnvelope, type InboundComment, type Json } from './envelope.ts';
import { parseMetaEnvelope } from './meta-changes.ts';
import { isThreadsNotification, THREADS_OBJECT } from './threads-changes.ts';
import { parseWhatsAppAccountChanges, recordWhatsAppAccountChanges, withoutWhatsAppAccountKinds } from '../whatsapp/account-events.ts';
import { parseWhatsAppMessages, recordWhatsAppMessages, withoutWhatsAppMessages } from '../whatsapp/inbound-messages.ts';

export const platformEventProcess = jobKind('platform_event.process', Type.Object({ eventId: Type.String() }), { maxAttempts: 5 });

// Compiled once (db/prepared.ts): every stored platform event is read and marked.
const storedEvent = prepare((db, id: string) => db.selectFrom('platform_webhook_events').select(['body', 'status', 'received_at']).where('id', '=', id));
const markProcessed = prepare((db, status: PlatformWebhookStatus, note: string | null, now: number, id: string) =>
  db.updateTable('platform_webhook_events').set({ status, note, processed_at: now }).where('id', '=', id).where('status', '<>', 'processed'),
);

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** The kinds of one envelope: `object.field` per change, `object.messaging` per messaging item; a Threads notification's one field. */
export function envelopeKinds(body: string | Json): { object: string | null; kinds: string[] } {
  const parsed = readEnvelope(body);
  if (!parsed) return { object: null, kinds: [] };
  if (isThreadsNotification(parsed)) return { object: THREADS_OBJECT, kinds: [`${THREADS_OBJECT}.${String(obj(parsed.values).field)}`] };
  const object = typeof parsed.object === 'string' ? parsed.object : null;
  const kinds = new Set<string>();
  for (const entry of Array.isArray(parsed.entry) ? parsed.entry.map(obj) : []) {
    for (const change of Array.isArray(entry.changes) ? entry.changes.map(obj) : []) kinds.add(`${object ?? '?'}.${String(change.field)}`);
    if (Array.isArray(entry.messaging) && entry.messaging.length) kinds.add(`${object ?? '?'}.messaging`);
  }
  return { object, kinds: [...kinds] };
}

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
  const parsed = parseMetaEnvelope(body);
  // Platform reads first, outside the transaction (mention-details.ts).
  const readNotes = await fillMentions(deps, parsed.items, context);
  const messaging = await prepareMessaging(deps, body);
  const whatsapp = parseWhatsAppAccountChanges(body, eventId);
  const waMessages = parseWhatsAppMessages(body);
  const unhandled = withoutWhatsAppMessages(withoutWhatsAppAccountKinds(withoutMessaging(parsed.unhandled)));
  const now = deps.clock.now();
  await db.transaction().execute(async (trx) => {
    let emitted = 0;
    for (const item of parsed.items) emitted += await processItem(trx, deps, item, row.received_at, now);
    emitted += await recordMessaging(trx, deps, messaging, row.received_at, now);
    emitted += await recordWhatsAppAccountChanges(trx, deps, whatsapp, row.received_at, now);
    emitted += await recordWhatsAppMessages(trx, deps, waMessages.items, row.received_at, now);
    const status = unhandled.length ? 'unhandled' : 'processed';
    const note = [noteOf(unhandled, [...parsed.ignored, ...messaging.ignored, ...whatsapp.ignored, ...waMessages.ignored], emitted), ...readNotes].filter(Boolean).join('; ') || null;
    await markProcessed.execute(trx, status, note, now, eventId);
    await context.completeIn(trx);
  });
}

/** Records the comment for every organization's account of that Page or Instagram account. */
async function processItem(trx: Kysely<Database>, deps: Pick<AppDeps, 'store'>, item: InboundComment, receivedAt: number, now: number): Promise<number> {
  // The account's own comment (the Page or the Instagram account commenting) is no event.
  if (item.fromId !== null && item.fromId === item.accountPlatformId) return 0;
  const accounts = await trx
    .selectFrom('accounts')
    .select(['id', 'organization_id', 'platform', 'external_id'])
    .where('platform', '=', item.platform)
    .where('platform_user_id', '=', item.accountPlatformId)
    .execute();
  let emitted = 0;
  for (const account of accounts) {
    if (await recordInboundComment({ db: trx, store: deps.store, now }, account, item, receivedAt)) emitted++;
  }
  return emitted;
}

export function noteOf(unhandled: string[], ignored: string[], emitted: number): string | null {
  const parts = [
    ...(unhandled.length ? [`no handler yet for ${unhandled.join(', ')}`] : []),
    ...(ignored.length ? [`ignored: ${ignored.join(', ')}`] : []),
    ...(emitted ? [`${emitted} inbox event${emitted === 1 ? '' : 's'}`] : []),
  ];
  return parts.length ? parts.join('; ') : null;
}
