import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { wantsFlag, whatsappAccount } from '../accounts.ts';
import { downloadMedia, mediaInfo } from '../media.ts';
import { Flag, MediaParams } from '../schemas.ts';

export function getMedia(api: Api): void {
  api.get(
    '/whatsapp/accounts/:id/media/:waMediaId',
    {
      schema: {
        operationId: 'getWhatsAppMedia',
        tags: ['WhatsApp'],
        summary: 'Media info (type, SHA-256, size); with download=1 the bytes themselves, streamed with their Content-Type',
        params: MediaParams,
        querystring: Type.Object({ download: Flag('1 answers with the bytes instead of the info.') }),
        response: {
          200: {
            description: "The info as JSON; with download=1 the bytes themselves, with the media's own Content-Type (image/jpeg, audio/ogg, application/pdf …) and Content-Disposition: attachment.",
            content: {
              'application/json': { schema: Type.Object({ media: Type.Ref('WhatsAppMedia') }) },
              'application/octet-stream': { schema: Type.String({ format: 'binary', description: 'download=1: the bytes (the real Content-Type is the media\'s own).' }) },
            },
          },
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request, reply) => {
      const { deps } = request.server;
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      if (!wantsFlag(request.query.download)) {
        const { url: _url, ...media } = await mediaInfo(deps, row, request.params.waMediaId);
        return { media };
      }
      const download = await downloadMedia(deps, row, request.params.waMediaId);
      reply.header('content-type', download.contentType);
      // Bytes a person sent (a document may be HTML): a browser saves them, never renders them here.
      reply.header('content-disposition', 'attachment');
      reply.header('x-content-type-options', 'nosniff');
      if (download.contentLength !== null) reply.header('content-length', download.contentLength);
      // A stream is sent as it is (no serializer); the 200 schema describes the info form.
      const bytes: unknown = Readable.fromWeb(download.body);
      return reply.send(bytes as { media: never });
    },
  );
}
