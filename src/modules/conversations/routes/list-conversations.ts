import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listConversations as list } from '../service.ts';

export function listConversations(api: Api): void {
  api.get(
    '/inbox/conversations',
    {
      schema: {
        operationId: 'listConversations',
        tags: ['Direct messages'],
        summary: 'Conversations with people on instagram, facebook Messenger and WhatsApp, latest first',
        querystring: Type.Object({
          accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'One account; unknown or foreign is 404.' })),
          platform: Type.Optional(Type.String({ enum: ['instagram', 'facebook', 'whatsapp'] })),
          status: Type.Optional(Type.String({ enum: ['active', 'archived'] })),
          unread: Type.Optional(Type.Boolean({ description: 'true: only conversations with unread messages.' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: '25 when absent.' })),
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The `cursor` of the previous page.' })),
        }),
        response: {
          200: Type.Object({ conversations: Type.Array(Type.Ref('Conversation')), cursor: Type.Union([Type.String(), Type.Null()], { description: 'The next page; null on the last one.' }) }),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => {
      const { status, limit, ...rest } = request.query;
      return list(request.server.deps, tenantOf(request), { ...rest, status: status as 'active' | 'archived' | undefined, limit: limit ?? 25 });
    },
  );
}
