// The account-level approval switch: when on, the account's posts are held for approval and its
// direct messages are refused (403 approval_required). The contract gives the API no operation
// for it; the dashboard sets it.
import type { Tenant } from '../../db/tenant.ts';

/** Turns the switch on or off; false when the organization has no such account. */
export async function setAccountApproval(tenant: Tenant, accountId: string, required: boolean, now: number): Promise<boolean> {
  const result = await tenant.updateTable('accounts').set({ approval_required: required ? 1 : 0, updated_at: now }).where('id', '=', accountId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
