import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listPosts as list } from '../repo.ts';
import { POST_STATUSES, presentPost } from '../schemas.ts';

export function listPosts(api: Api): void {
  api.get(
    '/posts',
    {
      schema: {
        operationId: 'listPosts',
        tags: ['Posts'],
        summary: 'The 100 most recent posts, with their targets',
        querystring: Type.Object({ status: Type.Optional(Type.String({ enum: [...POST_STATUSES], description: 'Only posts in this status.' })) }),
        response: { 200: Type.Object({ posts: Type.Array(Type.Ref('Post')) }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const posts = await list(tenantOf(request), request.query.status);
      return { posts: posts.map((p) => presentPost(p.post, p.targets)) };
    },
  );
}
