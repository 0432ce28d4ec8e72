// The approval rule for what an account does on a platform outside publishing (DESIGN "Comments
// and inbox"): comment writes, changes to published posts, direct and WhatsApp messages, and
// ads writes are refused with 403 approval_required when the API key, its organization or an
// account acted through requires approval. Callers check it before any platform call.
import type { AccountRow } from '../../db/schema.ts';
import { apiError } from '../../http/errors.ts';
import type { Caller } from '../../http/caller.ts';

/**
 * Refuses `what` (a phrase such as "boosting a post") when approval applies. `accounts` may be
 * empty: the key's and organization's setting is then checked alone, before any account is known.
 */
export function refuseUnapproved(caller: Caller, accounts: AccountRow | readonly AccountRow[], what: string): void {
  const rows: readonly AccountRow[] = Array.isArray(accounts) ? accounts : [accounts];
  if (caller.approvalRequired || rows.some((a) => a.approval_required === 1)) {
    throw apiError('approval_required', `Approval applies to this ${caller.approvalRequired ? 'API key or organization' : 'account'}: ${what} is refused`);
  }
}
