// The one way a request calls a platform for an account: refused with 409 reconnect_required
// while the account needs reconnecting, and a platform answer that the token is invalid (an
// `auth` PlatformError) marks it so before answering the same 409. Other platform failures get
// the contract's answers (toApiError).
import type { AccountRow } from '../../db/schema.ts';
import { apiError } from '../../http/errors.ts';
import type { AppDeps } from '../../deps.ts';
import { PlatformError, toApiError } from '../../platforms/errors.ts';
import type { AccountCredentials } from '../../platforms/types.ts';
import { credentialsOf } from './credentials.ts';
import { markNeedsReconnect } from './disconnect.ts';

export const reconnectRequired = (row: Pick<AccountRow, 'platform'>) =>
  apiError('reconnect_required', `The ${row.platform} account needs to be reconnected: its token is no longer valid`);

export async function callPlatform<T>(deps: Pick<AppDeps, 'store' | 'clock' | 'sealer'>, row: AccountRow, call: (credentials: AccountCredentials) => Promise<T>): Promise<T> {
  if (row.status === 'needs_reconnect') throw reconnectRequired(row);
  try {
    return await call(credentialsOf(row, deps.sealer));
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    if (error.kind === 'auth') await markNeedsReconnect(deps, row.id, 'token_invalid', error.message);
    throw toApiError(error);
  }
}
