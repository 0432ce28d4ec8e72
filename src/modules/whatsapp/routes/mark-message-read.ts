import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { emptyBodyAsObject } from '../../conversations/optional-body.ts';
import { MessageReply } from '../../conversations/schemas.ts';
import { whatsappAccount } from '../accounts.ts';
import { markMessageRead } from '../messages.ts';
import { AccountParams } from '../schemas.ts';

export function markMessageReadRoute(api: Api): void {
  api.post(
    '/whatsapp/accounts/:id/messages/:messageId/read',
    {
      preValidation: emptyBodyAsObject,
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'markWhatsAppMessageRead',
        tags: ['WhatsApp'],
        summary: "Marks a person's message (and those before it) read on WhatsApp, optionally showing the typing indicator",
        params: Type.Object({ id: AccountParams.properties.id, messageId: Type.String({ minLength: 1, maxLength: 200, description: 'Our message id or its platformMessageId.' }) }),
        body: Type.Object({ typing: Type.Optional(Type.Boolean({ description: 'Show the typing indicator (until the answer, or about 25 seconds).' })) }),
        response: { 200: MessageReply, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const row = await whatsappAccount(tenant, request.params.id);
      return { message: await markMessageRead(request.server.deps, tenant, row, request.params.messageId, request.body.typing === true) };
    },
  );
}
