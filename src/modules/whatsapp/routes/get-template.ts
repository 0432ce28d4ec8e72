import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { whatsappAccount } from '../accounts.ts';
import { TemplateParams } from '../schemas.ts';
import { getTemplate as get } from '../templates.ts';

export function getTemplate(api: Api): void {
  api.get(
    '/whatsapp/accounts/:id/templates/:templateId',
    {
      schema: {
        operationId: 'getWhatsAppTemplate',
        tags: ['WhatsApp'],
        summary: 'One message template, read from WhatsApp',
        params: TemplateParams,
        response: { 200: Type.Object({ template: Type.Ref('WhatsAppTemplate') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      return { template: await get(request.server.deps, row, request.params.templateId) };
    },
  );
}
