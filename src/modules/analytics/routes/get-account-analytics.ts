import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { accountAnalytics } from '../account-insights.ts';
import { MetricsParam } from './params.ts';

const PlatformWord = (description: string) => Type.Optional(Type.String({ pattern: '^[a-z_]{1,50}$', description }));

export function getAccountAnalytics(api: Api): void {
  api.get(
    '/analytics/accounts/:id',
    {
      schema: {
        operationId: 'getAccountAnalytics',
        tags: ['Analytics'],
        summary: "The account's insights, read from the platform; a metric the platform lacks is listed in unsupported, one it refuses in errors",
        params: IdParams,
        querystring: Type.Object({
          metrics: MetricsParam,
          period: Type.Optional(Type.String({ enum: ['day', 'week', 'days_28', 'lifetime'], description: 'day when absent.' })),
          since: Type.Optional(Type.String({ maxLength: 40, description: 'Date-time or date; with until, the range the platform reads (instagram: at most 30 days).' })),
          until: Type.Optional(Type.String({ maxLength: 40, description: 'Date-time or date.' })),
          metricType: Type.Optional(Type.String({ enum: ['total_value', 'time_series'], description: 'total_value when absent; a metric that has only the other type is read as that.' })),
          breakdown: PlatformWord("The platform's breakdown name (instagram: media_product_type, follow_type, follower_type, contact_button_type)."),
          timeframe: PlatformWord("The platform's timeframe (instagram: this_week, this_month)."),
        }),
        response: { 200: Type.Ref('AccountInsights'), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const { period, metricType, ...rest } = request.query;
      return accountAnalytics(request.server.deps, tenantOf(request), request.params.id, {
        ...rest,
        period: period === 'week' || period === 'days_28' || period === 'lifetime' ? period : 'day',
        metricType: metricType === 'time_series' ? 'time_series' : 'total_value',
      });
    },
  );
}
