import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { LOCATION_TYPES, SEARCH_TYPES, searchTargeting as search } from '../targeting.ts';
import { AccountIdField } from '../schemas.ts';

export function searchTargeting(api: Api): void {
  api.get(
    '/ads/targeting/search',
    {
      schema: {
        operationId: 'searchTargeting',
        tags: ['Ads'],
        summary: 'Find interests, locations, locales and categories for a targeting spec',
        querystring: Type.Object({
          accountId: AccountIdField,
          q: Type.Optional(Type.String({ maxLength: 200, description: 'adinterestsuggestion: a comma list of interest names.' })),
          type: Type.Optional(Type.String({ enum: SEARCH_TYPES, default: 'adinterest', description: 'What to search (adinterest when absent).' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
          locationTypes: Type.Optional(Type.String({ pattern: `^(${LOCATION_TYPES.join('|')})(,(${LOCATION_TYPES.join('|')}))*$`, description: 'adgeolocation: comma list of country, region, city, zip.' })),
          class: Type.Optional(Type.String({ pattern: '^[a-z_]{1,40}$', description: 'adTargetingCategory: behaviors, demographics …' })),
        }),
        response: { 200: Type.Object({ results: Type.Array(Type.Record(Type.String(), Type.Unknown())) }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => search(request.server.deps, tenantOf(request), request.query),
  );
}
