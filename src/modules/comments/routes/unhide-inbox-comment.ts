import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { CommentIdParams, Ok, OptionalAccountId } from '../schemas.ts';
import { writeComment } from '../service.ts';

export function unhideInboxComment(api: Api): void {
  api.delete(
    '/inbox/comments/:commentId/hide',
    {
      schema: {
        operationId: 'unhideInboxComment',
        tags: ['Comments'],
        summary: 'Show a hidden comment again (instagram, facebook, threads); accountId in the body or the query',
        params: CommentIdParams,
        querystring: OptionalAccountId,
        body: Type.Union([OptionalAccountId, Type.Null()]),
        response: { 200: Ok, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const accountId = request.body?.accountId ?? request.query.accountId;
      await writeComment(request.server.deps, tenantOf(request), callerOf(request), accountId, { kind: 'hide', commentId: request.params.commentId, hidden: false });
      return { ok: true as const };
    },
  );
}
