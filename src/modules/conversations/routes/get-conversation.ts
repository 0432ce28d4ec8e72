import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { ConversationReply } from '../schemas.ts';
import { getConversation as get } from '../service.ts';

export function getConversation(api: Api): void {
  api.get(
    '/inbox/conversations/:id',
    {
      schema: {
        operationId: 'getConversation',
        tags: ['Direct messages'],
        summary: 'One conversation, with its messaging window',
        params: IdParams,
        response: { 200: ConversationReply, ...errorResponses(404) },
      },
    },
    async (request) => ({ conversation: await get(request.server.deps, tenantOf(request), request.params.id) }),
  );
}
