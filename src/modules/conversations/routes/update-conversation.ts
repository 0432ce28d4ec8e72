import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { ConversationReply } from '../schemas.ts';
import { updateConversation as update } from '../service.ts';

export function updateConversation(api: Api): void {
  api.patch(
    '/inbox/conversations/:id',
    {
      schema: {
        operationId: 'updateConversation',
        tags: ['Direct messages'],
        summary: 'Archives a conversation or makes it active again (a new message from the person also does)',
        params: IdParams,
        body: Type.Object({ status: Type.String({ enum: ['active', 'archived'] }) }),
        response: { 200: ConversationReply, ...errorResponses(400, 404) },
      },
    },
    async (request) => ({ conversation: await update(request.server.deps, tenantOf(request), request.params.id, request.body.status as 'active' | 'archived') }),
  );
}
