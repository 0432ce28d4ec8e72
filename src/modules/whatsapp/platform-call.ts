// Calls to the Cloud API for a stored WhatsApp account. Like accounts/platform-call.ts (a
// needs_reconnect account is refused with 409 before any call; an `auth` failure marks it), but
// the answer is the WhatsApp error table's code where it names one (template_error,
// recipient_not_allowed, account_restricted, phone_number_not_registered, marketing_limit,
// rate_limited …), so the caller learns what to do, not only that the platform failed.
import type { AccountRow } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { apiError, errors, type ApiError } from '../../http/errors.ts';
import { PlatformError, toApiError } from '../../platforms/errors.ts';
import type { AccountCredentials, WhatsAppBusiness } from '../../platforms/types.ts';
import { whatsappErrorRow } from '../../platforms/whatsapp/errors.ts';
import { credentialsOf } from '../accounts/credentials.ts';
import { markNeedsReconnect } from '../accounts/disconnect.ts';
import { reconnectRequired } from '../accounts/platform-call.ts';

export type WhatsAppDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms' | 'config'>;

/** The contract's answer for a failed Cloud API call. `invalidAs`: what a rejected input means here (template_error for templates). */
export function whatsappApiError(error: PlatformError, invalidAs?: 'template_error'): ApiError {
  const row = whatsappErrorRow(error.details.code);
  const message = `whatsapp: ${error.message}`;
  if (row && row.code !== 'reconnect_required') return apiError(row.code, message);
  if (invalidAs && error.kind === 'invalid') return apiError(invalidAs, message);
  return toApiError(error);
}

export async function callWhatsApp<T>(
  deps: WhatsAppDeps,
  row: AccountRow,
  call: (cloud: WhatsAppBusiness, credentials: AccountCredentials) => Promise<T>,
  invalidAs?: 'template_error',
): Promise<T> {
  const cloud = deps.platforms.of(row.platform)?.whatsapp;
  if (!cloud) throw errors.notSupported(`${row.platform} accounts have no WhatsApp Business operations (only whatsapp)`);
  if (row.status === 'needs_reconnect') throw reconnectRequired(row);
  try {
    return await call(cloud, credentialsOf(row, deps.sealer));
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    if (error.kind === 'auth') {
      await markNeedsReconnect(deps, row.id, 'token_invalid', error.message);
      throw toApiError(error);
    }
    throw whatsappApiError(error, invalidAs);
  }
}
