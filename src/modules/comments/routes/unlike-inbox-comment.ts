import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { CommentIdParams, Ok, OptionalAccountId } from '../schemas.ts';
import { writeComment } from '../service.ts';

export function unlikeInboxComment(api: Api): void {
  api.delete(
    '/inbox/comments/:commentId/like',
    {
      schema: {
        operationId: 'unlikeInboxComment',
        tags: ['Comments'],
        summary: 'Take the like back (facebook); accountId in the body or the query',
        params: CommentIdParams,
        querystring: OptionalAccountId,
        body: Type.Union([OptionalAccountId, Type.Null()]),
        response: { 200: Ok, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const accountId = request.body?.accountId ?? request.query.accountId;
      await writeComment(request.server.deps, tenantOf(request), callerOf(request), accountId, { kind: 'like', commentId: request.params.commentId, liked: false });
      return { ok: true as const };
    },
  );
}
