import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { findSentMessage } from '../find-sent.ts';
import { WhatsAppSendBody } from '../../whatsapp/routes/send-message.ts';
import { MessageReply } from '../schemas.ts';
import { sendMessage as send } from '../send.ts';

export function sendMessage(api: Api): void {
  api.post(
    '/inbox/conversations/:id/messages',
    {
      config: { idempotent: { find: findSentMessage } },
      schema: {
        operationId: 'sendConversationMessage',
        tags: ['Direct messages'],
        summary: 'Sends a live direct message: text, or one attachment by mediaUrl or mediaId; WhatsApp also a template, interactive, location, reaction or whatsappMediaId',
        params: IdParams,
        body: Type.Object({
          text: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
          mediaUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'A file the platform fetches (http or https).' })),
          mediaId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Media of this service, sent by its publicUrl.' })),
          attachmentType: Type.Optional(Type.String({ enum: ['image', 'video', 'audio', 'file'], description: 'Required with mediaUrl; from the media type for mediaId.' })),
          tag: Type.Optional(Type.Literal('HUMAN_AGENT', { description: "A human agent's answer: allowed up to 7 days after the person's last message (not WhatsApp)." })),
          // WhatsApp conversations only; the same shapes as POST /whatsapp/accounts/{id}/messages.
          template: Type.Optional(WhatsAppSendBody.properties.template),
          interactive: Type.Optional(WhatsAppSendBody.properties.interactive),
          location: Type.Optional(WhatsAppSendBody.properties.location),
          reaction: Type.Optional(WhatsAppSendBody.properties.reaction),
          whatsappMediaId: Type.Optional(WhatsAppSendBody.properties.whatsappMediaId),
          replyTo: Type.Optional(WhatsAppSendBody.properties.replyTo),
        }),
        response: { 201: MessageReply, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request, reply) => {
      const { attachmentType, ...body } = request.body;
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort(new Error('the client closed the connection'));
      });
      const message = await send(request.server.deps, tenantOf(request), callerOf(request), request.params.id, { ...body, attachmentType: attachmentType as 'image' | 'video' | 'audio' | 'file' | undefined }, gone.signal);
      return reply.code(201).send({ message });
    },
  );
}
