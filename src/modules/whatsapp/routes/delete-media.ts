import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { whatsappAccount } from '../accounts.ts';
import { deleteMedia as remove } from '../media.ts';
import { MediaParams, Ok } from '../schemas.ts';

export function deleteMedia(api: Api): void {
  api.delete(
    '/whatsapp/accounts/:id/media/:waMediaId',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'deleteWhatsAppMedia',
        tags: ['WhatsApp'],
        summary: 'Delete media on WhatsApp',
        params: MediaParams,
        response: { 200: Ok, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      await remove(request.server.deps, row, request.params.waMediaId);
      return { ok: true as const };
    },
  );
}
