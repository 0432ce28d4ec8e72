// How an ads request reaches the Marketing API (DESIGN "Ads"): through a connected facebook
// account of the organization, with the Facebook user token it was connected with. Checked
// before any platform call, in order: the account (404), its platform (400 not_supported),
// for a write, approval (403 approval_required: the key, the organization or the account; an
// Admit given where the account becomes known), its state (409 reconnect_required), the user
// token (403 missing_permission when the account was connected before ads existed). Platform failures answer by the Marketing error table: an
// `auth` failure marks the account needs_reconnect, a rate limit carries Retry-After.
import type { AccountRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import type { AppDeps } from '../../deps.ts';
import { apiError, errors } from '../../http/errors.ts';
import type { Caller } from '../../http/caller.ts';
import { PlatformError, toApiError } from '../../platforms/errors.ts';
import type { AdsCapability, AdsCredentials } from '../../platforms/types.ts';
import { refuseUnapproved } from '../accounts/approval-guard.ts';
import { reconnectRequired } from '../accounts/platform-call.ts';
import { markNeedsReconnect } from '../accounts/disconnect.ts';
import { adAccountRecords, findRecord, recordObjects, type AdRecord } from './records.ts';

export type AdsDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>;

/** Where a call acts: the facebook account and the ad account. */
export interface AdScope {
  account: AccountRow;
  adAccountId: string;
}

/** What a call checks on the account it acts through, as soon as it is known and before any platform call. */
export type Admit = (account: AccountRow) => void;

/** Reads: any account of the organization. */
export const anyAccount: Admit = () => undefined;

/**
 * Writes (creating, changing, spending, deleting): refused with 403 approval_required when
 * approval applies to the caller or the account; `what` names the operation in the refusal.
 */
export const approvedFor = (caller: Caller, what: string): Admit => (account) => refuseUnapproved(caller, account, what);

export function requireConfirm(confirm: boolean | undefined, what: string): void {
  if (confirm !== true) throw errors.invalid('confirm', `must be true to ${what}; nothing was sent to the platform`);
}

export async function findAccount(tenant: Tenant, accountId: string, field = 'accountId'): Promise<AccountRow> {
  const row = await tenant.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!row) throw errors.notFound('Account');
  if (row.platform !== 'facebook') throw errors.notSupported(`${field}: ads act through a facebook account, not ${row.platform}`);
  return row;
}

async function credentialsOf(deps: AdsDeps, account: AccountRow): Promise<AdsCredentials> {
  if (account.status === 'needs_reconnect') throw reconnectRequired(account);
  const row = await deps.store.db.selectFrom('account_user_tokens').select('token_enc').where('account_id', '=', account.id).executeTakeFirst();
  if (!row) throw apiError('missing_permission', 'The facebook account was connected without ads access: grant ads_management and ads_read, then reconnect the account');
  return { accessToken: deps.sealer.open(row.token_enc) };
}

/** One call to the Marketing API as the account, with the contract's answers for its failures. */
export async function adsCall<T>(deps: AdsDeps, account: AccountRow, call: (ads: AdsCapability, credentials: AdsCredentials) => Promise<T>): Promise<T> {
  const ads = deps.platforms.of(account.platform)?.ads;
  if (!ads) throw errors.notSupported(`${account.platform} has no ads`);
  const credentials = await credentialsOf(deps, account);
  try {
    return await call(ads, credentials);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    if (error.kind === 'auth') await markNeedsReconnect(deps, account.id, 'token_invalid', error.message);
    const answer = toApiError(error);
    if (error.kind === 'rate_limited') answer.retryAfterSeconds = Math.ceil((error.details.retryAfterMs ?? 60_000) / 1000);
    throw answer;
  }
}

/** The account of a record, or the one the caller names (which must be the organization's facebook account), admitted. */
export async function accountOf(tenant: Tenant, record: AdRecord, accountId: string | undefined, admit: Admit = anyAccount): Promise<AccountRow> {
  const account = await findAccount(tenant, accountId ?? record.account_id);
  admit(account);
  return account;
}

/**
 * The ad account a call acts on. Named: a recorded one (through its account, or the one given),
 * or, with accountId, one the platform lets that account read (then recorded). Not named: the
 * organization's only ad account (of accountId when given, read from the platform if that
 * account's were never listed); else 400 naming adAccountId. The account acted through is
 * admitted before any platform call.
 */
export async function adAccountScope(
  deps: AdsDeps,
  tenant: Tenant,
  input: { accountId?: string | undefined; adAccountId?: string | undefined },
  options: { field?: string; admit?: Admit } = {},
): Promise<AdScope> {
  const { field = 'adAccountId', admit = anyAccount } = options;
  const admitted = async (accountId: string) => {
    const account = await findAccount(tenant, accountId);
    admit(account);
    return account;
  };
  const given = input.accountId !== undefined ? await admitted(input.accountId) : null;
  if (input.adAccountId !== undefined) {
    const adAccountId = input.adAccountId.startsWith('act_') ? input.adAccountId : `act_${input.adAccountId}`;
    const record = await findRecord(tenant, adAccountId, ['ad_account']);
    if (record) return { account: given ?? (await admitted(record.account_id)), adAccountId };
    if (!given) throw errors.invalid(field, 'no such ad account (list them with GET /ads/accounts?accountId=…)');
    await adsCall(deps, given, (ads, credentials) => ads.adAccount(credentials, adAccountId));
    await recordObjects(tenant, deps.clock.now(), [{ platformId: adAccountId, kind: 'ad_account', accountId: given.id, adAccountId }]);
    return { account: given, adAccountId };
  }
  let records = await adAccountRecords(tenant, given?.id);
  if (!records.length && given) {
    // Not listed yet: the account's ad accounts are read (and recorded) once, as GET /ads/accounts would.
    const found = await adsCall(deps, given, (ads, credentials) => ads.adAccounts(credentials));
    await recordObjects(tenant, deps.clock.now(), found.map((a) => ({ platformId: a.id, kind: 'ad_account' as const, accountId: given.id, adAccountId: a.id })));
    records = await adAccountRecords(tenant, given.id);
  }
  const only = records.length === 1 ? records[0] : undefined;
  if (!only) throw errors.invalid('adAccountId', records.length ? 'required: the organization has several ad accounts' : 'required (list ad accounts with GET /ads/accounts?accountId=…)');
  return { account: given ?? (await admitted(only.account_id)), adAccountId: only.platform_id };
}

/** The currency of an ad account, read from the platform (money is converted with it). */
export async function currencyOf(deps: AdsDeps, scope: AdScope): Promise<string> {
  return (await adsCall(deps, scope.account, (ads, credentials) => ads.adAccount(credentials, scope.adAccountId))).currency;
}
