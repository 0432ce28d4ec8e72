import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { wantsFlag, whatsappAccount } from '../accounts.ts';
import { phoneNumberOf } from '../phone-number.ts';
import { AccountParams, Flag } from '../schemas.ts';

export function getPhoneNumber(api: Api): void {
  api.get(
    '/whatsapp/accounts/:id/phone-number',
    {
      schema: {
        operationId: 'getWhatsAppPhoneNumber',
        tags: ['WhatsApp'],
        summary: "The number's display number, verified name, quality rating, messaging limit and onboarding state",
        params: AccountParams,
        querystring: Type.Object({ refresh: Flag('true reads WhatsApp now instead of the record kept for 10 minutes.') }),
        response: { 200: Type.Object({ phoneNumber: Type.Ref('WhatsAppPhoneNumber') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const row = await whatsappAccount(tenantOf(request), request.params.id);
      return { phoneNumber: await phoneNumberOf(request.server.deps, row, wantsFlag(request.query.refresh)) };
    },
  );
}
