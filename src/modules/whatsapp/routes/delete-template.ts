import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { wantsFlag, whatsappAccount } from '../accounts.ts';
import { Flag, Ok, TemplateParams } from '../schemas.ts';
import { deleteTemplate as remove } from '../templates.ts';

export function deleteTemplate(api: Api): void {
  api.delete(
    '/whatsapp/accounts/:id/templates/:templateId',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'deleteWhatsAppTemplate',
        tags: ['WhatsApp'],
        summary: "Delete this language of a template, or with allLanguages=true every language of its name",
        params: TemplateParams,
        querystring: Type.Object({
          name: Type.Optional(Type.String({ pattern: '^[a-z0-9_]{1,512}$', description: "The template's name; checked against the template when given." })),
          allLanguages: Flag('true deletes every language of the name.'),
        }),
        response: { 200: Ok, ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      await remove(request.server.deps, row, request.params.templateId, { name: request.query.name, allLanguages: wantsFlag(request.query.allLanguages) });
      return { ok: true as const };
    },
  );
}
