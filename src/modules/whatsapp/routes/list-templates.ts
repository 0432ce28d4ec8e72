import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { whatsappAccount } from '../accounts.ts';
import { DEFAULT_LIMIT, listTemplates as list } from '../templates.ts';
import { AccountParams, TEMPLATE_CATEGORIES } from '../schemas.ts';

const Word = (description: string) => Type.Optional(Type.String({ pattern: '^[A-Z_]{1,40}$', description }));

export function listTemplates(api: Api): void {
  api.get(
    '/whatsapp/accounts/:id/templates',
    {
      schema: {
        operationId: 'listWhatsAppTemplates',
        tags: ['WhatsApp'],
        summary: "The message templates of the number's business account, read from WhatsApp",
        params: AccountParams,
        querystring: Type.Object({
          status: Word('APPROVED, PENDING, REJECTED, PAUSED, DISABLED …'),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'Templates whose name contains this text.' })),
          category: Type.Optional(Type.String({ enum: [...TEMPLATE_CATEGORIES] })),
          language: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(_[A-Za-z]{2,4})?$', description: 'en_US …' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIMIT })),
          after: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'The after of the previous page.' })),
        }),
        response: {
          200: Type.Object({
            templates: Type.Array(Type.Ref('WhatsAppTemplate')),
            after: Type.Union([Type.String(), Type.Null()], { description: 'Give it as after for the next page; null on the last page.' }),
          }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      return list(request.server.deps, row, request.query);
    },
  );
}
