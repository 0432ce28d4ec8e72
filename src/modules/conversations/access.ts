// What a conversation operation checks before it calls the platform: the platform offers
// messaging (400 not_supported), the account granted the messaging permissions (403
// missing_permission: instagram_business_manage_messages or instagram_manage_messages,
// pages_messaging), and for sends, approval (403 approval_required). The token (409
// reconnect_required) is callPlatform's.
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import type { AppDeps } from '../../deps.ts';
import { apiError, errors } from '../../http/errors.ts';
import type { Caller } from '../../http/caller.ts';
import type { Messaging } from '../../platforms/types.ts';
import { refuseUnapproved } from '../accounts/approval-guard.ts';
import { credentialsOf } from '../accounts/credentials.ts';

export type ConversationDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms' | 'config'>;

export function messagingOf(deps: Pick<AppDeps, 'platforms'>, platform: string): Messaging {
  const messaging = deps.platforms.of(platform)?.messaging;
  if (messaging) return messaging;
  const offered = Object.entries(deps.platforms.adapters).filter(([, a]) => a.messaging).map(([name]) => name);
  throw errors.notSupported(`${platform} direct messages are not supported here (only ${offered.join(', ')})`);
}

export function requireMessagingPermission(deps: Pick<AppDeps, 'sealer'>, messaging: Messaging, account: AccountRow): void {
  const credentials = credentialsOf(account, deps.sealer);
  const granted = new Set(credentials.scopes);
  const missing = messaging.permissions(credentials).filter((p) => !granted.has(p));
  if (missing.length) {
    throw apiError('missing_permission', `The ${account.platform} account did not grant ${missing.join(', ')}, which direct messages need; add it in the platform app, then reconnect`);
  }
}

export function refuseUnapprovedSend(caller: Caller, account: AccountRow): void {
  refuseUnapproved(caller, account, 'sending direct messages');
}

export async function conversationAccount(tenant: Tenant, accountId: string): Promise<AccountRow> {
  const row = await tenant.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!row) throw errors.notFound('Account');
  return row;
}
