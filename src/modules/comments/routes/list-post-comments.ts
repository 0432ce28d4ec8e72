import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listPostComments as list } from '../service.ts';

export function listPostComments(api: Api): void {
  api.get(
    '/posts/:id/comments',
    {
      schema: {
        operationId: 'listPostComments',
        tags: ['Comments'],
        summary: "The comments of every published target of the post, read from the platforms; a failing platform is listed in errors",
        params: IdParams,
        response: {
          200: Type.Object({
            comments: Type.Array(Type.Ref('Comment')),
            errors: Type.Array(Type.Object({ accountId: Type.String(), error: Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) }) }), { description: "The targets whose comments could not be read, or were read only in part: missing_permission names a permission the account did not grant, without which the platform leaves comments out (facebook: people's comments need pages_read_user_content)." }),
          }),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => list(request.server.deps, tenantOf(request), request.params.id),
  );
}
