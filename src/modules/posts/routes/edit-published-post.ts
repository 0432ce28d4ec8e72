import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { runPublishedOperation } from '../published.ts';
import { CONTENT_MAX } from '../schemas.ts';
import { AccountIdField, ChangedTargets } from './published-response.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function editPublishedPost(api: Api): void {
  api.post(
    '/posts/:id/edit',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'editPublishedPost',
        tags: ['Posts'],
        summary: `Edit the text of the live post (${platformsOffering('editor')})`,
        params: IdParams,
        body: Type.Object({ content: Type.String({ minLength: 1, maxLength: CONTENT_MAX }), accountId: AccountIdField }),
        response: { 200: ChangedTargets, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const { content, accountId } = request.body;
      const targets = await runPublishedOperation(request.server.deps, tenantOf(request), callerOf(request), request.params.id, { kind: 'edit', content }, accountId);
      return { targets };
    },
  );
}
