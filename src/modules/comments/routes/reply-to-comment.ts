import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { findPublishedReply } from '../find-written.ts';
import { CommentText } from '../schemas.ts';
import { replyOnPublishedPost } from '../service.ts';

export function replyToComment(api: Api): void {
  api.post(
    '/comments/:id/reply',
    {
      config: { idempotent: { find: findPublishedReply } },
      schema: {
        operationId: 'replyToComment',
        tags: ['Comments'],
        summary: "Reply to a comment as the account of the organization's published target with this platformPostId; none is 404",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: "The platform's comment id." }) }),
        body: Type.Object({ platformPostId: Type.String({ minLength: 1, maxLength: 200 }), text: CommentText }),
        response: { 200: Type.Ref('CommentReply'), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const { platformPostId, text } = request.body;
      const created = await replyOnPublishedPost(request.server.deps, tenantOf(request), callerOf(request), request.params.id, platformPostId, text);
      return { ok: true as const, id: created.id ?? '', ...(created.repliedTo ? { repliedTo: created.repliedTo } : {}) };
    },
  );
}
