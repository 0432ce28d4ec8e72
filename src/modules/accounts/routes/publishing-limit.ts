import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { publishingLimitOf } from '../publishing-limit.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function getPublishingLimit(api: Api): void {
  api.get(
    '/accounts/:id/publishing-limit',
    {
      schema: {
        operationId: 'getPublishingLimit',
        tags: ['Accounts'],
        summary: `Posts used and allowed in the rolling 24-hour window (${platformsOffering('limits')})`,
        params: IdParams,
        response: {
          200: Type.Object({ used: Type.Integer(), allowed: Type.Integer(), windowHours: Type.Integer() }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request) => {
      const row = await tenantOf(request).selectFrom('accounts').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw errors.notFound('Account');
      const limit = publishingLimitOf(request.server.deps, row);
      if (!limit) throw errors.notSupported(`${row.platform} has no publishing limit here; ${platformsOffering('limits')} report one, and x does with X_DAILY_POST_LIMIT`);
      return limit;
    },
  );
}
