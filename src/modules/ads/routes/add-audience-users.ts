import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { addAudienceMembers } from '../audiences.ts';
import { AccountIdField, IdParams } from '../schemas.ts';

export function addAudienceUsers(api: Api): void {
  api.post(
    '/ads/audiences/:id/users',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'addAudienceUsers',
        tags: ['Ads'],
        summary: 'Add people to a customer-list audience: emails or phones are normalised and SHA-256 hashed before upload, never stored',
        params: IdParams,
        body: Type.Object({
          accountId: Type.Optional(AccountIdField),
          emails: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 320 }), { maxItems: 10000 })),
          phones: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 10000, description: 'With the country code (+1 555 …).' })),
        }),
        response: {
          200: Type.Object({ audienceId: Type.String(), received: Type.Integer({ description: 'Rows Meta received.' }), invalid: Type.Integer({ description: 'Rows Meta could not use.' }) }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request) => addAudienceMembers(request.server.deps, tenantOf(request), callerOf(request), request.params.id, request.body),
  );
}
