import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { AccountIdField, CommentIdParams, Ok } from '../schemas.ts';
import { writeComment } from '../service.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function deleteInboxComment(api: Api): void {
  api.delete(
    '/inbox/comments/:commentId',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'deleteInboxComment',
        tags: ['Comments'],
        summary: `Delete a comment (${platformsOffering('commentRemover')})`,
        params: CommentIdParams,
        querystring: Type.Object({ accountId: AccountIdField }),
        response: { 200: Ok, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      await writeComment(request.server.deps, tenantOf(request), callerOf(request), request.query.accountId, { kind: 'delete', commentId: request.params.commentId });
      return { ok: true as const };
    },
  );
}
