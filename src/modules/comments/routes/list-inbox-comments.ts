import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { AccountIdField } from '../schemas.ts';
import { listInboxComments as list } from '../service.ts';
import { inboxCommentPlatforms } from '../../../platforms/registry.ts';

export function listInboxComments(api: Api): void {
  api.get(
    '/inbox/comments',
    {
      schema: {
        operationId: 'listInboxComments',
        tags: ['Comments'],
        summary: `A live post's comments, read from the platform (${inboxCommentPlatforms().join(', ')}), replies after their parent`,
        querystring: Type.Object({
          postId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: `A post of this service: its first published target on one of ${inboxCommentPlatforms().join(', ')} (accountId picks another).` })),
          accountId: Type.Optional(AccountIdField),
          platformPostId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The platform's post id, with accountId." })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Top-level comments per page (25 when absent).' })),
          after: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'The `after` of the previous page.' })),
        }),
        response: {
          200: Type.Object({ comments: Type.Array(Type.Ref('Comment')), after: Type.Union([Type.String(), Type.Null()], { description: 'The next page\'s cursor; null on the last page.' }) }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request) => {
      const { limit, ...rest } = request.query;
      return list(request.server.deps, tenantOf(request), { ...rest, limit: limit ?? 25 });
    },
  );
}
