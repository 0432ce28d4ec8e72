// The account a /whatsapp/accounts/{id}/… route acts as: the caller's organization's (another
// organization's is unknown: 404) and a WhatsApp one (any other platform: 400 not_supported),
// checked before any platform call.
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';

export async function whatsappAccount(tenant: Tenant, accountId: string): Promise<AccountRow> {
  const row = await tenant.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!row) throw errors.notFound('Account');
  if (row.platform !== 'whatsapp') throw errors.notSupported(`${row.platform} accounts have no WhatsApp Business operations (only whatsapp)`);
  return row;
}

export const wantsFlag = (value: string | undefined): boolean => value === '1' || value === 'true';
