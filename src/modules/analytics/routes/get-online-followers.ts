import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { onlineFollowers } from '../audience.ts';
import { Type } from 'typebox';
import { platformsOffering } from '../../../platforms/registry.ts';

export function getOnlineFollowers(api: Api): void {
  api.get(
    '/analytics/accounts/:id/online-followers',
    {
      schema: {
        operationId: 'getOnlineFollowers',
        tags: ['Analytics'],
        summary: `The account's followers online per hour, per day and on average (${platformsOffering('onlineFollowers')})`,
        params: IdParams,
        response: { 200: Type.Ref('OnlineFollowers'), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => onlineFollowers(request.server.deps, tenantOf(request), request.params.id),
  );
}
