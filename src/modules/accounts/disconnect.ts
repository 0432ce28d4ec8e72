// needs_reconnect: the platform said the token is no longer valid. The status change and its
// account.disconnected event are written in one transaction, and only on the change itself, so
// several failing calls at once emit one event.
import type { AppDeps } from '../../deps.ts';
import { emitEvent } from '../events/emit.ts';
import { accountName } from './credentials.ts';

export type DisconnectReason = 'token_invalid';

export async function markNeedsReconnect(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  accountId: string,
  reason: DisconnectReason,
  error: string | null,
): Promise<boolean> {
  const now = deps.clock.now();
  return deps.store.db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('accounts')
      .set({ status: 'needs_reconnect', updated_at: now })
      .where('id', '=', accountId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (changed.numUpdatedRows === 0n) return false;
    const row = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    await trx.deleteFrom('account_health').where('account_id', '=', accountId).execute();
    await emitEvent({ db: trx, store: deps.store, now }, row.organization_id, 'account.disconnected', {
      accountId,
      platform: row.platform,
      accountName: accountName(row),
      externalId: row.external_id,
      reason,
      error,
    });
    return true;
  });
}
