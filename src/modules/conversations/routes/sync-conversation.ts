import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { emptyBodyAsObject } from '../optional-body.ts';
import { syncConversation as sync } from '../sync.ts';

export function syncConversation(api: Api): void {
  api.post(
    '/inbox/conversations/:id/sync',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        operationId: 'syncConversation',
        tags: ['Direct messages'],
        summary: "Fetches the conversation's latest messages; 409 sync_required before the account's sync",
        params: IdParams,
        body: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Latest messages to read (25 when absent).' })) }),
        response: {
          200: Type.Object({ conversation: Type.Ref('Conversation'), messagesStored: Type.Integer({ description: 'Messages new to the service.' }) }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request) => sync(request.server.deps, tenantOf(request), request.params.id, request.body.limit ?? 25),
  );
}
