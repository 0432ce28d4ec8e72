import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { findInboxComment } from '../find-written.ts';
import { AccountIdField, CommentText, Created } from '../schemas.ts';
import { writeComment } from '../service.ts';

export function createInboxComment(api: Api): void {
  api.post(
    '/inbox/comments',
    {
      config: { idempotent: { find: findInboxComment } },
      schema: {
        operationId: 'createInboxComment',
        tags: ['Comments'],
        summary: 'Comment on a live post as the account (where its platform allows comments; elsewhere 400 not_supported)',
        body: Type.Object({ accountId: AccountIdField, platformPostId: Type.String({ minLength: 1, maxLength: 200 }), text: CommentText }),
        response: { 200: Created, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const { accountId, platformPostId, text } = request.body;
      const created = await writeComment(request.server.deps, tenantOf(request), callerOf(request), accountId, { kind: 'comment', platformPostId, text });
      return { ok: true as const, id: created.id ?? '' };
    },
  );
}
