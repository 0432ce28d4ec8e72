import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { postAnalytics } from '../post-insights.ts';
import { MetricsParam } from './params.ts';

export function getPostAnalytics(api: Api): void {
  api.get(
    '/analytics/posts/:id',
    {
      schema: {
        operationId: 'getPostAnalytics',
        tags: ['Analytics'],
        summary: 'Insights of each published target of the post, from the newest snapshot (refresh=1 reads the platforms now); a failing target or metric is listed in its errors',
        params: IdParams,
        querystring: Type.Object({
          metrics: MetricsParam,
          accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Only this account's target." })),
          refresh: Type.Optional(Type.String({ enum: ['1', '0', 'true', 'false'], description: '1: read the platforms now instead of the newest snapshot.' })),
        }),
        response: {
          200: Type.Object({ postId: Type.String(), targets: Type.Array(Type.Ref('TargetInsights')) }),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => postAnalytics(request.server.deps, tenantOf(request), request.params.id, request.query),
  );
}
