// GET /ads/targeting/search (contract "Ads"; platforms.md §9.7): interests, interest
// suggestions, locations, locales and targeting categories, as Meta's search has them; the ids
// and keys found go into an ad set's targeting spec.
import type { Tenant } from '../../db/tenant.ts';
import { adsCall, findAccount, type AdsDeps } from './access.ts';

export const SEARCH_TYPES = ['adinterest', 'adinterestsuggestion', 'adgeolocation', 'adlocale', 'adTargetingCategory'];
export const LOCATION_TYPES = ['country', 'region', 'city', 'zip'];

export interface TargetingQuery {
  accountId: string;
  q?: string | undefined;
  type?: string | undefined;
  limit?: number | undefined;
  locationTypes?: string | undefined;
  class?: string | undefined;
}

export async function searchTargeting(deps: AdsDeps, tenant: Tenant, query: TargetingQuery) {
  const account = await findAccount(tenant, query.accountId);
  const results = await adsCall(deps, account, (ads, credentials) =>
    ads.searchTargeting(credentials, {
      type: query.type ?? 'adinterest',
      q: query.q ?? '',
      limit: query.limit ?? 25,
      locationTypes: query.locationTypes?.split(',').map((t) => t.trim()).filter(Boolean) ?? [],
      targetingClass: query.class ?? null,
    }),
  );
  return { results };
}
