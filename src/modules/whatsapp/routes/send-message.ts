import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { MessageReply } from '../../conversations/schemas.ts';
import { whatsappAccount } from '../accounts.ts';
import { MESSAGE_TYPES } from '../message-content.ts';
import { sendMessage as send } from '../messages.ts';
import { AccountParams } from '../schemas.ts';

const Text = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const CloudObject = (description: string) => Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { description, maxProperties: 20 });

/** The flat body (DESIGN "WhatsApp"); the inbox send of a WhatsApp conversation takes its WhatsApp fields too. */
export const WhatsAppSendBody = Type.Object({
  to: Type.Optional(Text(16, 'The person\'s number in E.164: digits, "+" optional.')),
  recipient: Type.Optional(Text(16, "The person's WhatsApp id (a conversation's participant.id).")),
  conversationId: Type.Optional(Text(100, 'A WhatsApp conversation of this account.')),
  type: Type.String({ enum: [...MESSAGE_TYPES] }),
  text: Type.Optional(Text(4096, 'type text.')),
  previewUrl: Type.Optional(Type.Boolean({ description: 'type text: show a preview of the first URL.' })),
  url: Type.Optional(Text(2048, 'Media by an http(s) URL WhatsApp fetches.')),
  mediaId: Type.Optional(Text(100, 'Media of this service: uploaded to WhatsApp, then sent.')),
  whatsappMediaId: Type.Optional(Text(64, 'Media already on WhatsApp (POST /whatsapp/accounts/{id}/media).')),
  caption: Type.Optional(Text(1024, 'image, video, document.')),
  fileName: Type.Optional(Text(240, 'document.')),
  template: Type.Optional(
    Type.Object({
      name: Text(512),
      language: Type.String({ pattern: '^[a-z]{2,3}(_[A-Za-z]{2,4})?$', maxLength: 10, description: 'en_US …' }),
      components: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 20, description: "Parameters in the Cloud API's shape." })),
    }),
  ),
  interactive: Type.Optional(CloudObject("As the Cloud API has it: {type, header?, body, footer?, action}.")),
  location: Type.Optional(
    Type.Object({
      latitude: Type.Number({ minimum: -90, maximum: 90 }),
      longitude: Type.Number({ minimum: -180, maximum: 180 }),
      name: Type.Optional(Text(1000)),
      address: Type.Optional(Text(1000)),
    }),
  ),
  reaction: Type.Optional(Type.Object({ messageId: Text(200, 'The platformMessageId reacted to.'), emoji: Type.String({ maxLength: 16, description: 'Empty removes the reaction.' }) })),
  replyTo: Type.Optional(Text(200, 'The platformMessageId this answers.')),
});

export function sendMessage(api: Api): void {
  api.post(
    '/whatsapp/accounts/:id/messages',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'sendWhatsAppMessage',
        tags: ['WhatsApp'],
        summary: "Sends a WhatsApp message; outside the 24-hour window from the person's last message only templates",
        params: AccountParams,
        body: WhatsAppSendBody,
        response: { 201: MessageReply, ...errorResponses(400, 403, 404, 409, 429, 502) },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const row = await whatsappAccount(tenant, request.params.id);
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort(new Error('the client closed the connection'));
      });
      const message = await send(request.server.deps, tenant, callerOf(request), row, request.body, gone.signal);
      return reply.code(201).send({ message });
    },
  );
}
