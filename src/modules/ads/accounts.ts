// GET /ads/accounts: the ad accounts the person behind a facebook account can use, recorded for
// the organization (they become valid adAccountId values).
import type { Tenant } from '../../db/tenant.ts';
import { adsCall, findAccount, type AdsDeps } from './access.ts';
import { presentAdAccount } from './present.ts';
import { recordObjects } from './records.ts';
import type { AdAccountView } from './schemas.ts';

export async function listAdAccounts(deps: AdsDeps, tenant: Tenant, accountId: string): Promise<{ adAccounts: AdAccountView[] }> {
  const account = await findAccount(tenant, accountId);
  const found = await adsCall(deps, account, (ads, credentials) => ads.adAccounts(credentials));
  await recordObjects(tenant, deps.clock.now(), found.map((a) => ({ platformId: a.id, kind: 'ad_account' as const, accountId: account.id, adAccountId: a.id })));
  return { adAccounts: found.map((a) => presentAdAccount(a, account.id)) };
}
