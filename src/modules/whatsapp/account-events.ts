// The WhatsApp business-account webhooks that are not messages (platforms.md §7.7), read by
// platform_event.process: template review (`message_template_status_update` →
// template.status), template quality and category (`message_template_quality_update`,
// `template_category_update` → template.quality) and the number's quality and limit
// (`phone_number_quality_update` → account.quality). Each becomes, for every organization's
// WhatsApp account of that business account (for account.quality: of that number), an inbox
// event of kind `other` and the contract's event with its id, in the job's transaction. Once per
// platform event: the inbox row's unique (account, kind, dedupe key) decides, the key built from
// the change and the entry's `time` (or, without one, the stored webhook and the change's place
// in it). `account_update` (restrictions, bans) has no event in the contract: ignored with a
// note. `messages` stays unhandled here: sending and receiving messages is another handler's.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib/ids.ts';
import { parseMetadata } from '../accounts/credentials.ts';
import type { EventData } from '../events/catalog.ts';
import { emitEvent } from '../events/emit.ts';

import { readEnvelope, type Json } from '../platform-webhooks/envelope.ts';
import { inboundHandler } from '../platform-webhooks/inbound-handler.ts';

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const digits = (v: string | null): string => (v ?? '').replace(/\D/g, '');

const WABA_OBJECT = 'whatsapp_business_account';
const TEMPLATE_FIELDS = ['message_template_status_update', 'message_template_quality_update', 'template_category_update'];
const QUALITY_FIELD = 'phone_number_quality_update';
const IGNORED_FIELDS = ['account_update'];
/** The `object.field` kinds this handler reads (or deliberately ignores). */
export const WHATSAPP_ACCOUNT_KINDS = [...TEMPLATE_FIELDS, QUALITY_FIELD, ...IGNORED_FIELDS].map((f) => `${WABA_OBJECT}.${f}`);

type TemplateFields = Omit<EventData<'template.status'>, 'eventId' | 'platform' | 'accountId' | 'externalId' | 'receivedAt'>;
type QualityFields = Omit<EventData<'account.quality'>, 'eventId' | 'platform' | 'accountId' | 'externalId' | 'receivedAt'>;

export type WhatsAppAccountChange =
  | { event: 'template.status' | 'template.quality'; wabaId: string; dedupeKey: string; fields: TemplateFields }
  | { event: 'account.quality'; wabaId: string; dedupeKey: string; fields: QualityFields };

export interface ParsedWhatsAppAccountChanges {
  changes: WhatsAppAccountChange[];
  ignored: string[];
}

function templateChange(field: string, wabaId: string, value: Json): WhatsAppAccountChange | null {
  const templateId = str(value.message_template_id);
  if (!templateId) return null;
  const base = { wabaId, templateId, name: str(value.message_template_name), language: str(value.message_template_language) };
  if (field === 'message_template_status_update') {
    const event = str(value.event);
    const otherInfo = value.other_info === undefined ? null : obj(value.other_info);
    return { event: 'template.status', wabaId, dedupeKey: `status:${templateId}:${event ?? ''}`, fields: { ...base, kind: 'status', event, reason: str(value.reason), otherInfo } };
  }
  if (field === 'message_template_quality_update') {
    const previousQualityScore = str(value.previous_quality_score);
    const newQualityScore = str(value.new_quality_score);
    return { event: 'template.quality', wabaId, dedupeKey: `quality:${templateId}:${previousQualityScore ?? ''}>${newQualityScore ?? ''}`, fields: { ...base, kind: 'quality', event: null, previousQualityScore, newQualityScore } };
  }
  const previousCategory = str(value.previous_category);
  const newCategory = str(value.new_category);
  return {
    event: 'template.quality',
    wabaId,
    dedupeKey: `category:${templateId}:${previousCategory ?? ''}>${newCategory ?? ''}`,
    fields: { ...base, kind: 'category', event: null, previousCategory, newCategory, correctCategory: str(value.correct_category) },
  };
}

function qualityChange(wabaId: string, value: Json): WhatsAppAccountChange | null {
  const displayPhoneNumber = str(value.display_phone_number);
  const event = str(value.event);
  if (!displayPhoneNumber || !event) return null;
  const max = str(value.max_daily_conversations_per_business);
  const currentLimit = str(value.current_limit);
  return {
    event: 'account.quality',
    wabaId,
    dedupeKey: `number:${digits(displayPhoneNumber)}:${event}:${currentLimit ?? ''}`,
    fields: {
      wabaId,
      displayPhoneNumber,
      event,
      currentLimit,
      oldLimit: str(value.old_limit),
      // Not in the documented payload; passed on when Meta sends it.
      qualityRating: str(value.quality_rating),
      maxDailyConversations: max !== null && /^\d+$/.test(max) ? Number(max) : null,
    },
  };
}

/** The changes of a stored body; `storedId` keys the dedupe when an entry carries no time. */
export function parseWhatsAppAccountChanges(body: string | Json, storedId: string): ParsedWhatsAppAccountChanges {
  const parsed = readEnvelope(body);
  if (!parsed) return { changes: [], ignored: [] };
  const out: ParsedWhatsAppAccountChanges = { changes: [], ignored: [] };
  if (parsed.object !== WABA_OBJECT) return out;
  arr(parsed.entry).forEach((item, entryIndex) => {
    const entry = obj(item);
    const wabaId = str(entry.id);
    const time = str(entry.time);
    arr(entry.changes).forEach((c, changeIndex) => {
      const change = obj(c);
      const field = str(change.field) ?? '?';
      const kind = `${WABA_OBJECT}.${field}`;
      if (IGNORED_FIELDS.includes(field)) {
        if (!out.ignored.includes(`${kind} (no event in the contract)`)) out.ignored.push(`${kind} (no event in the contract)`);
        return;
      }
      if (!TEMPLATE_FIELDS.includes(field) && field !== QUALITY_FIELD) return;
      const read = wabaId ? (field === QUALITY_FIELD ? qualityChange(wabaId, obj(change.value)) : templateChange(field, wabaId, obj(change.value))) : null;
      if (!read) {
        if (!out.ignored.includes(`${kind} without its ids`)) out.ignored.push(`${kind} without its ids`);
        return;
      }
      read.dedupeKey += `@${time ?? `${storedId}:${entryIndex}:${changeIndex}`}`;
      out.changes.push(read);
    });
  });
  return out;
}

interface WabaAccount {
  id: string;
  organization_id: string;
  external_id: string | null;
  username: string | null;
}

/**
 * Every organization's WhatsApp accounts of a business account (its id is in their metadata).
 * The metadata text is narrowed with LIKE on the id (digits only, so no pattern characters), then
 * read exactly.
 */
async function accountsOfWaba(trx: Kysely<Database>, wabaId: string): Promise<WabaAccount[]> {
  if (!/^\d{1,30}$/.test(wabaId)) return [];
  const rows = await trx
    .selectFrom('accounts')
    .select(['id', 'organization_id', 'external_id', 'username', 'metadata'])
    .where('platform', '=', 'whatsapp')
    .where('metadata', 'like', `%${wabaId}%`)
    .execute();
  return rows.filter((row) => parseMetadata(row.metadata).wabaId === wabaId);
}

/** Records and emits the changes; the number of events emitted. */
export async function recordWhatsAppAccountChanges(
  trx: Kysely<Database>,
  deps: Pick<AppDeps, 'store'>,
  parsed: ParsedWhatsAppAccountChanges,
  receivedAt: number,
  now: number,
): Promise<number> {
  let emitted = 0;
  const received = new Date(receivedAt).toISOString();
  for (const change of parsed.changes) {
    let accounts = await accountsOfWaba(trx, change.wabaId);
    if (change.event === 'account.quality') {
      const number = digits(change.fields.displayPhoneNumber);
      accounts = accounts.filter((a) => digits(a.username) === number);
    }
    for (const account of accounts) {
      const id = newId('event', now);
      const common = { eventId: id, platform: 'whatsapp', accountId: account.id, externalId: account.external_id, receivedAt: received };
      const data = { ...common, ...change.fields };
      const inserted = await trx
        .insertInto('inbox_events')
        .values({ id, organization_id: account.organization_id, account_id: account.id, platform: 'whatsapp', kind: 'other', dedupe_key: change.dedupeKey, data: JSON.stringify(data), received_at: receivedAt })
        .onConflict((oc) => oc.columns(['account_id', 'kind', 'dedupe_key']).doNothing())
        .executeTakeFirst();
      if (inserted.numInsertedOrUpdatedRows === 0n) continue;
      const ctx = { db: trx, store: deps.store, now };
      if (change.event === 'account.quality') {
        await emitEvent(ctx, account.organization_id, 'account.quality', { ...common, ...change.fields }, { id });
        // The stored record of the number is out of date: the next read asks WhatsApp.
        await trx.updateTable('whatsapp_numbers').set({ refreshed_at: null }).where('account_id', '=', account.id).execute();
      } else {
        await emitEvent(ctx, account.organization_id, change.event, { ...common, ...change.fields }, { id });
      }
      emitted++;
    }
  }
  return emitted;
}

/** The registry's handler (platform-webhooks/handlers.ts) of these kinds. */
export const whatsappAccountHandler = inboundHandler({
  name: 'whatsapp account',
  kinds: WHATSAPP_ACCOUNT_KINDS,
  parse: (body, { eventId }) => parseWhatsAppAccountChanges(body, eventId),
  record: recordWhatsAppAccountChanges,
});
