import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { runPublishedOperation } from '../published.ts';
import { AccountIdField, ChangedTargets } from './published-response.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function updateCommentsSettings(api: Api): void {
  api.post(
    '/posts/:id/comments-settings',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'updateCommentsSettings',
        tags: ['Posts'],
        summary: `Turn comments on or off on the live post (${platformsOffering('commentsSwitch')})`,
        params: IdParams,
        body: Type.Object({ enabled: Type.Boolean(), accountId: AccountIdField }),
        response: { 200: ChangedTargets, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const { enabled, accountId } = request.body;
      const targets = await runPublishedOperation(request.server.deps, tenantOf(request), callerOf(request), request.params.id, { kind: 'comments', enabled }, accountId);
      return { targets };
    },
  );
}
