import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { whatsappAccount } from '../accounts.ts';
import { uploadMedia as upload } from '../media.ts';
import { AccountParams } from '../schemas.ts';

export function uploadMedia(api: Api): void {
  api.post(
    '/whatsapp/accounts/:id/media',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'uploadWhatsAppMedia',
        tags: ['WhatsApp'],
        summary: 'Upload media to WhatsApp from our media (mediaId) or a URL; the WhatsApp media id to send it by',
        params: AccountParams,
        body: Type.Object({
          mediaId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Media uploaded to this service (POST /media).' })),
          url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'An http(s) URL the service fetches; its Content-Type is the media type.' })),
        }),
        response: { 201: Type.Object({ whatsappMediaId: Type.String() }), ...errorResponses(400, 403, 404, 409, 413, 502) },
      },
    },
    async (request, reply) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      // The fetch and the upload stop when the client goes away before its answer.
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort(new Error('the client closed the connection'));
      });
      const whatsappMediaId = await upload(request.server.deps, tenantOf(request), row, request.body, gone.signal);
      return reply.code(201).send({ whatsappMediaId });
    },
  );
}
