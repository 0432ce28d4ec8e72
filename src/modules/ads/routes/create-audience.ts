import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { createAudience as create } from '../audiences.ts';
import { AccountIdField, AdAccountIdField, Confirm } from '../schemas.ts';

export function createAudience(api: Api): void {
  api.post(
    '/ads/audiences',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'createAudience',
        tags: ['Ads'],
        summary: 'Create a customer-list custom audience (confirm: true required)',
        body: Type.Object({
          accountId: Type.Optional(AccountIdField),
          adAccountId: Type.Optional(AdAccountIdField),
          name: Type.String({ minLength: 1, maxLength: 400 }),
          description: Type.Optional(Type.String({ maxLength: 2000 })),
          confirm: Type.Optional(Confirm),
        }),
        response: { 201: Type.Object({ audience: Type.Ref('AdAudience') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request, reply) => reply.code(201).send({ audience: await create(request.server.deps, tenantOf(request), callerOf(request), request.body) }),
  );
}
