import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { bestTime } from '../best-time.ts';

export function getBestTime(api: Api): void {
  api.get(
    '/analytics/best-time',
    {
      schema: {
        operationId: 'getBestTime',
        tags: ['Analytics'],
        summary: "The best UTC weekday and hour slots to post, from the account's own published posts of the last days (or its followers online, or the platform's defaults), with what the answer rests on",
        querystring: Type.Object({
          accountId: Type.String({ minLength: 1, maxLength: 100, description: 'The account; an unknown or foreign one is 404.' }),
          days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 90, description: '90 when absent.' })),
        }),
        response: { 200: Type.Ref('BestTime'), ...errorResponses(400, 404) },
      },
    },
    async (request) => bestTime(request.server.deps, tenantOf(request), request.query.accountId, request.query.days ?? 90),
  );
}
