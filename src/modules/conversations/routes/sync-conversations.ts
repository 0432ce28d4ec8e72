import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { syncAccount } from '../sync.ts';

export function syncConversations(api: Api): void {
  api.post(
    '/inbox/conversations/sync',
    {
      schema: {
        operationId: 'syncConversations',
        tags: ['Direct messages'],
        summary: "Backfills the account's conversations and their latest messages from the platform",
        body: Type.Object({
          accountId: Type.String({ minLength: 1, maxLength: 100 }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Conversations a page (25 when absent).' })),
          pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 1, description: 'Pages of conversations to read (1 when absent).' })),
        }),
        response: {
          200: Type.Object({ conversations: Type.Array(Type.Ref('Conversation')), messagesStored: Type.Integer({ description: 'Messages new to the service.' }) }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request) => {
      const { accountId, limit, pages } = request.body;
      return syncAccount(request.server.deps, tenantOf(request), { accountId, limit: limit ?? 25, pages: pages ?? 1 });
    },
  );
}
