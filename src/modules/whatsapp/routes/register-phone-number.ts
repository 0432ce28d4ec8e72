import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { whatsappAccount } from '../accounts.ts';
import { registerNumber } from '../phone-number.ts';
import { AccountParams, Ok } from '../schemas.ts';

export function registerPhoneNumber(api: Api): void {
  api.post(
    '/whatsapp/accounts/:id/register',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'registerWhatsAppPhoneNumber',
        tags: ['WhatsApp'],
        summary: 'Register (or re-register) the number for the Cloud API with its two-step verification PIN',
        params: AccountParams,
        body: Type.Object({
          pin: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', description: 'The 6-digit two-step verification PIN; omitted, the PIN last registered with through this service.' })),
        }),
        response: { 200: Ok, ...errorResponses(400, 403, 404, 409, 429, 502) },
      },
      // The body may be left out entirely: it then means {}.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      await registerNumber(request.server.deps, row, request.body.pin);
      return { ok: true as const };
    },
  );
}
