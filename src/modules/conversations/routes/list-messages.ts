import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { listMessages as list } from '../service.ts';

export function listMessages(api: Api): void {
  api.get(
    '/inbox/conversations/:id/messages',
    {
      schema: {
        operationId: 'listConversationMessages',
        tags: ['Direct messages'],
        summary: "A page of the conversation's messages, oldest to newest; nextBefore reads the page before it",
        params: IdParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: '50 when absent.' })),
          before: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The `nextBefore` of the previous page.' })),
        }),
        response: {
          200: Type.Object({ messages: Type.Array(Type.Ref('Message')), nextBefore: Type.Union([Type.String(), Type.Null()], { description: 'Older messages; null when there are none.' }) }),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => list(tenantOf(request), request.params.id, { limit: request.query.limit ?? 50, before: request.query.before }),
  );
}
