import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { whatsappAccount } from '../accounts.ts';
import { AccountParams, TEMPLATE_CATEGORIES } from '../schemas.ts';
import { createTemplate as create } from '../templates.ts';

const Component = Type.Object(
  { type: Type.String({ enum: ['HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'header', 'body', 'footer', 'buttons'] }) },
  { additionalProperties: true, description: "A component in the Cloud API's shape: {type: BODY, text, example} …" },
);

export function createTemplate(api: Api): void {
  api.post(
    '/whatsapp/accounts/:id/templates',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'createWhatsAppTemplate',
        tags: ['WhatsApp'],
        summary: 'Create a message template; it is submitted for review (status PENDING) and its outcome arrives as template.status',
        params: AccountParams,
        body: Type.Object({
          name: Type.String({ pattern: '^[a-z0-9_]{1,512}$', description: 'Lowercase letters, digits and underscores.' }),
          language: Type.String({ pattern: '^[a-z]{2,3}(_[A-Za-z]{2,4})?$', description: 'en_US …' }),
          category: Type.String({ enum: [...TEMPLATE_CATEGORIES] }),
          components: Type.Array(Component, { minItems: 1, maxItems: 10 }),
          parameterFormat: Type.Optional(Type.String({ enum: ['POSITIONAL', 'NAMED'], description: 'POSITIONAL ({{1}}) by default.' })),
        }),
        response: { 201: Type.Object({ template: Type.Ref('WhatsAppTemplate') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request, reply) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      const body = request.body;
      const template = await create(request.server.deps, row, {
        name: body.name,
        language: body.language,
        category: body.category,
        components: body.components,
        parameterFormat: body.parameterFormat === 'NAMED' ? 'NAMED' : body.parameterFormat === 'POSITIONAL' ? 'POSITIONAL' : undefined,
      });
      return reply.code(201).send({ template });
    },
  );
}
