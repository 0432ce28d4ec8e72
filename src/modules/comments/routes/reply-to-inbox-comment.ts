import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { findInboxReply } from '../find-written.ts';
import { AccountIdField, CommentIdParams, CommentText } from '../schemas.ts';
import { writeComment } from '../service.ts';

export function replyToInboxComment(api: Api): void {
  api.post(
    '/inbox/comments/:commentId/reply',
    {
      config: { idempotent: { find: findInboxReply } },
      schema: {
        operationId: 'replyToInboxComment',
        tags: ['Comments'],
        summary: 'Reply to a comment as the account (where its platform allows replies; elsewhere 400 not_supported)',
        params: CommentIdParams,
        body: Type.Object({ accountId: AccountIdField, text: CommentText }),
        response: { 200: Type.Ref('CommentReply'), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const { accountId, text } = request.body;
      const created = await writeComment(request.server.deps, tenantOf(request), callerOf(request), accountId, { kind: 'reply', commentId: request.params.commentId, text });
      return { ok: true as const, id: created.id ?? '', ...(created.repliedTo ? { repliedTo: created.repliedTo } : {}) };
    },
  );
}
