// The connected number's record (contract: display number, verified name, quality rating,
// messaging limit, onboarding state) and its registration. The record is stored
// (whatsapp_numbers) and served while younger than RECORD_TTL_MS, the health cache's 10
// minutes; refresh=true, an older record, or none reads the Cloud API again. Registering clears
// the stored record, so the next read shows the number's new state; quality webhooks update it
// in between (template-events.ts). The PIN registered with is kept sealed, so a later register
// may omit it.
import type { AccountRow } from '../../db/schema.ts';
import { errors } from '../../http/errors.ts';
import type { WhatsAppPhoneNumber } from '../../platforms/types.ts';
import { metaString } from '../../platforms/types.ts';
import { parseMetadata } from '../accounts/credentials.ts';
import { callWhatsApp, type WhatsAppDeps } from './platform-call.ts';
import type { PhoneNumberView } from './schemas.ts';

export const RECORD_TTL_MS = 10 * 60_000;

function viewOf(row: AccountRow, phone: WhatsAppPhoneNumber, refreshedAt: number): PhoneNumberView {
  return {
    accountId: row.id,
    phoneNumberId: row.platform_user_id,
    wabaId: metaString(parseMetadata(row.metadata), 'wabaId') || null,
    displayPhoneNumber: phone.displayPhoneNumber,
    verifiedName: phone.verifiedName,
    qualityRating: phone.qualityRating,
    messagingLimit: phone.messagingLimitTier,
    onboarding: {
      // A number serves the Cloud API once registered: its platform_type is then CLOUD_API.
      registered: phone.platformType === 'CLOUD_API',
      status: phone.status,
      codeVerificationStatus: phone.codeVerificationStatus,
      nameStatus: phone.nameStatus,
      platformType: phone.platformType,
      accountMode: phone.accountMode,
    },
    refreshedAt: new Date(refreshedAt).toISOString(),
  };
}

const numberRow = (deps: WhatsAppDeps, row: AccountRow) =>
  deps.store.db.selectFrom('whatsapp_numbers').selectAll().where('account_id', '=', row.id).executeTakeFirst();

async function saveNumber(deps: WhatsAppDeps, row: AccountRow, values: { record?: string | null; refreshed_at?: number | null; pin_enc?: string }): Promise<void> {
  const wabaId = metaString(parseMetadata(row.metadata), 'wabaId');
  await deps.store.db
    .insertInto('whatsapp_numbers')
    .values({ account_id: row.id, organization_id: row.organization_id, waba_id: wabaId, phone_number_id: row.platform_user_id, record: null, refreshed_at: null, pin_enc: null, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
    .execute();
}

export async function phoneNumberOf(deps: WhatsAppDeps, row: AccountRow, refresh: boolean): Promise<PhoneNumberView> {
  const now = deps.clock.now();
  if (!refresh) {
    const stored = await numberRow(deps, row);
    if (stored?.record && stored.refreshed_at !== null && stored.refreshed_at > now - RECORD_TTL_MS) return JSON.parse(stored.record) as PhoneNumberView;
  }
  const phone = await callWhatsApp(deps, row, (cloud, credentials) => cloud.phoneNumber(credentials));
  const view = viewOf(row, phone, now);
  await saveNumber(deps, row, { record: JSON.stringify(view), refreshed_at: now });
  return view;
}

/** Registers with the given PIN, or the one last registered with; the PIN is kept sealed. */
export async function registerNumber(deps: WhatsAppDeps, row: AccountRow, pin: string | undefined): Promise<void> {
  let chosen = pin;
  if (chosen === undefined) {
    const sealed = (await numberRow(deps, row))?.pin_enc;
    if (!sealed) throw errors.invalid('pin', "required: no PIN was registered through this service yet (the number's 6-digit two-step verification PIN)");
    chosen = deps.sealer.open(sealed);
  }
  const used = chosen;
  await callWhatsApp(deps, row, (cloud, credentials) => cloud.register(credentials, used));
  await saveNumber(deps, row, { pin_enc: deps.sealer.seal(used), record: null, refreshed_at: null });
}

/** After POST /whatsapp/connect registered the number: keep its PIN the same way. */
export async function rememberPin(deps: WhatsAppDeps, row: AccountRow, pin: string): Promise<void> {
  await saveNumber(deps, row, { pin_enc: deps.sealer.seal(pin) });
}
