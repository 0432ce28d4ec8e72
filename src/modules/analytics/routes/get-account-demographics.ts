import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { AUDIENCES, DEMOGRAPHIC_BREAKDOWNS, type Audience } from '../../../platforms/insights-types.ts';
import { demographics } from '../audience.ts';

const isAudience = (v: string | undefined): v is Audience => (AUDIENCES as readonly string[]).includes(v ?? '');

export function getAccountDemographics(api: Api): void {
  api.get(
    '/analytics/accounts/:id/demographics',
    {
      schema: {
        operationId: 'getAccountDemographics',
        tags: ['Analytics'],
        summary: "The account's audience by age, city, country or gender (instagram needs 100 or more followers)",
        params: IdParams,
        querystring: Type.Object({
          breakdown: Type.String({ maxLength: 20, description: `One of ${DEMOGRAPHIC_BREAKDOWNS.join(', ')} (facebook: country, city).` }),
          metric: Type.Optional(Type.String({ enum: [...AUDIENCES], description: 'Whose: followers (default), engaged or reached (instagram).' })),
          timeframe: Type.Optional(Type.String({ pattern: '^[a-z_]{1,50}$', description: 'instagram: this_month (default) or this_week.' })),
        }),
        response: { 200: Type.Ref('Demographics'), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const { breakdown, metric, timeframe } = request.query;
      return demographics(request.server.deps, tenantOf(request), request.params.id, {
        breakdown,
        metric: isAudience(metric) ? metric : undefined,
        timeframe,
      });
    },
  );
}
