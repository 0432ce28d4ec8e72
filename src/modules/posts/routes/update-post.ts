import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { updatePostContent } from '../lifecycle.ts';
import { findPost } from '../repo.ts';
import { CONTENT_MAX, presentPost } from '../schemas.ts';

export function updatePost(api: Api): void {
  api.patch(
    '/posts/:id',
    {
      schema: {
        operationId: 'updatePost',
        tags: ['Posts'],
        summary: 'Replace the content of a draft, scheduled, pending_approval or failed post',
        params: IdParams,
        body: Type.Object({ content: Type.String({ maxLength: CONTENT_MAX }) }),
        response: { 200: Type.Object({ post: Type.Ref('Post') }), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      await updatePostContent(request.server.deps, tenant, request.params.id, request.body.content);
      const found = await findPost(tenant, request.params.id);
      if (!found) throw errors.notFound('Post');
      return { post: presentPost(found.post, found.targets) };
    },
  );
}
