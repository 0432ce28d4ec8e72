import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { emptyBodyAsObject } from '../optional-body.ts';
import { ConversationReply } from '../schemas.ts';
import { markRead as mark } from '../service.ts';

export function markRead(api: Api): void {
  api.post(
    '/inbox/conversations/:id/read',
    {
      preValidation: emptyBodyAsObject,
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'markConversationRead',
        tags: ['Direct messages'],
        summary: "Marks the person's messages read, and seen on the platform unless platform is false",
        params: IdParams,
        body: Type.Object({ platform: Type.Optional(Type.Boolean({ default: true, description: 'false: no seen mark on the platform.' })) }),
        response: { 200: ConversationReply, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ conversation: await mark(request.server.deps, tenantOf(request), request.params.id, request.body.platform !== false) }),
  );
}
