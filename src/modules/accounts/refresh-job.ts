// The `account.refresh` job: refreshes one account's token ahead of its expiry and queues the
// next refresh, in one transaction. A token the platform calls invalid marks the account
// needs_reconnect (account.disconnected); a transient failure or a rate limit is retried and
// disconnects nothing.
import type { AppDeps } from '../../deps.ts';
import { defineJob, PermanentJobError, RetryJobError } from '../../jobs/catalog.ts';
import { PlatformError } from '../../platforms/errors.ts';
import type { TokenSet } from '../../platforms/types.ts';
import { credentialsOf } from './credentials.ts';
import { markNeedsReconnect } from './disconnect.ts';
import { accountRefresh, scheduleRefresh } from './refresh-schedule.ts';

export function accountRefreshJob(deps: Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>) {
  const { store, clock, sealer, platforms } = deps;
  return defineJob(accountRefresh, {
    timeoutMs: 60_000,
    async run({ accountId, expiresAt }) {
      const row = await store.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
      // Gone, disconnected, or reconnected/refreshed since (a newer token has its own job).
      if (!row || row.status !== 'active' || row.token_expires_at !== expiresAt) return;
      const refresher = platforms.of(row.platform)?.refresher;
      if (!refresher) return;

      let token: TokenSet;
      try {
        token = await refresher.refresh(credentialsOf(row, sealer), clock.now());
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        if (error.kind === 'auth') {
          await markNeedsReconnect(deps, accountId, 'token_invalid', error.message);
          return;
        }
        if (error.kind === 'rate_limited' && error.details.retryAfterMs) throw new RetryJobError(error.message, error.details.retryAfterMs);
        if (error.retryable) throw error;
        throw new PermanentJobError(`${error.kind}: ${error.message}`);
      }

      const now = clock.now();
      await store.db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('accounts')
          .set({
            access_token_enc: sealer.seal(token.accessToken),
            refresh_token_enc: token.refreshToken ? sealer.seal(token.refreshToken) : row.refresh_token_enc,
            token_expires_at: token.expiresAt,
            scopes: token.scopes.length ? token.scopes.join(',') : row.scopes,
            updated_at: now,
          })
          .where('id', '=', accountId)
          .where('token_expires_at', '=', expiresAt)
          .executeTakeFirst();
        if (updated.numUpdatedRows > 0n && token.expiresAt !== null) await scheduleRefresh(trx, store, now, accountId, token.expiresAt);
      });
    },
  });
}
