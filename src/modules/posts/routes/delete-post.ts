import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { deletePost as remove } from '../lifecycle.ts';

export function deletePost(api: Api): void {
  api.delete(
    '/posts/:id',
    {
      schema: {
        operationId: 'deletePost',
        tags: ['Posts'],
        summary: 'Remove a post from the service (posts on the platforms stay); a scheduled post is cancelled',
        params: IdParams,
        response: { 200: Type.Object({ deleted: Type.Boolean() }), ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await remove(request.server.deps, tenantOf(request), request.params.id);
      return { deleted: true };
    },
  );
}
