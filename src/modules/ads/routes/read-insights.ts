import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { BREAKDOWNS, DATE_PRESETS, LEVELS, readInsights as read } from '../insights.ts';
import { AccountIdField } from '../schemas.ts';

const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

export function readInsights(api: Api): void {
  api.get(
    '/ads/insights',
    {
      schema: {
        operationId: 'readAdInsights',
        tags: ['Ads'],
        summary: 'Delivery numbers of an ad account, campaign, ad set or ad',
        querystring: Type.Object({
          accountId: Type.Optional(AccountIdField),
          objectId: Type.Optional(Type.String({ pattern: '^(act_)?[0-9]{1,30}$', description: 'An ad account (act_…), campaign, ad set or ad; default the only ad account.' })),
          datePreset: Type.Optional(Type.String({ enum: DATE_PRESETS })),
          since: Type.Optional(Day),
          until: Type.Optional(Day),
          level: Type.Optional(Type.String({ enum: LEVELS })),
          breakdowns: Type.Optional(Type.String({ maxLength: 200, description: `Comma list of ${BREAKDOWNS.join(', ')}.` })),
          timeIncrement: Type.Optional(Type.String({ pattern: '^([1-9]|[1-8][0-9]|90|monthly|all_days)$', description: 'Days per row (1–90), monthly, or all_days.' })),
        }),
        response: {
          200: Type.Object({ objectId: Type.String(), rows: Type.Array(Type.Record(Type.String(), Type.Unknown(), { description: 'impressions, reach, spend, clicks, cpc, cpm, ctr, linkClicks, actions, dateStart, dateStop, breakdowns …' })) }),
          ...errorResponses(400, 403, 404, 409, 429, 502),
        },
      },
    },
    async (request) => read(request.server.deps, tenantOf(request), request.query),
  );
}
