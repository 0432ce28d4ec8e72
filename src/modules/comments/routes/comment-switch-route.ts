// The four switches on a comment (hide/unhide, like/unlike) share one shape: POST turns the
// state on and DELETE off, with `accountId` in the body or the query. Each operation keeps its
// own file and operationId; this registers it.
import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { CommentIdParams, Ok, OptionalAccountId } from '../schemas.ts';
import { writeComment, type CommentWrite } from '../service.ts';

export interface CommentSwitch {
  method: 'post' | 'delete';
  path: '/inbox/comments/:commentId/hide' | '/inbox/comments/:commentId/like';
  operationId: string;
  summary: string;
  write: (commentId: string) => CommentWrite;
}

export function commentSwitchRoute(api: Api, route: CommentSwitch): void {
  api.route({
    method: route.method === 'post' ? 'POST' : 'DELETE',
    url: route.path,
    config: { idempotent: { repeatable: true } },
    schema: {
      operationId: route.operationId,
      tags: ['Comments'],
      summary: route.summary,
      params: CommentIdParams,
      querystring: OptionalAccountId,
      body: Type.Union([OptionalAccountId, Type.Null()]),
      response: { 200: Ok, ...errorResponses(400, 403, 404, 409, 502) },
    },
    async handler(request) {
      const accountId = request.body?.accountId ?? request.query.accountId;
      await writeComment(request.server.deps, tenantOf(request), callerOf(request), accountId, route.write(request.params.commentId));
      return { ok: true as const };
    },
  });
}
