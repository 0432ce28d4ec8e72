import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { runPublishedOperation } from '../published.ts';
import { AccountIdField, ChangedTargets } from './published-response.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function unpublishPost(api: Api): void {
  api.post(
    '/posts/:id/unpublish',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'unpublishPost',
        tags: ['Posts'],
        summary: `Delete the live post on the platform (${platformsOffering('remover')}); the post stays in the service`,
        params: IdParams,
        body: Type.Object({ accountId: AccountIdField }),
        response: { 200: ChangedTargets, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const targets = await runPublishedOperation(request.server.deps, tenantOf(request), callerOf(request), request.params.id, { kind: 'unpublish' }, request.body.accountId);
      return { targets };
    },
  );
}
