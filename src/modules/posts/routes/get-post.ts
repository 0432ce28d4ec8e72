import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { findPost } from '../repo.ts';
import { presentPost } from '../schemas.ts';

export function getPost(api: Api): void {
  api.get(
    '/posts/:id',
    {
      schema: {
        operationId: 'getPost',
        tags: ['Posts'],
        summary: 'One post with per-target status, platformPostId, url, error, attempts and warnings',
        params: IdParams,
        response: { 200: Type.Object({ post: Type.Ref('Post') }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const found = await findPost(tenantOf(request), request.params.id);
      if (!found) throw errors.notFound('Post');
      return { post: presentPost(found.post, found.targets) };
    },
  );
}
