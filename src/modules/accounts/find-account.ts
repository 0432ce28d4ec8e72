// One of the caller's accounts by id; another organization's (or no) account is a 404.
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';

export async function findAccount(tenant: Tenant, accountId: string): Promise<AccountRow> {
  const row = await tenant.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!row) throw errors.notFound('Account');
  return row;
}
