import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { createAd as create } from '../ads.ts';
import { AccountIdField, AdObjectId, Confirm } from '../schemas.ts';

export function createAd(api: Api): void {
  api.post(
    '/ads/ads',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'createAd',
        tags: ['Ads'],
        summary: 'Create an ad from an ad set and a creative, PAUSED (confirm: true required)',
        body: Type.Object({ accountId: Type.Optional(AccountIdField), adSetId: AdObjectId, creativeId: AdObjectId, name: Type.String({ minLength: 1, maxLength: 400 }), confirm: Type.Optional(Confirm) }),
        response: { 201: Type.Object({ ad: Type.Ref('Ad') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request, reply) => reply.code(201).send({ ad: await create(request.server.deps, tenantOf(request), callerOf(request), request.body) }),
  );
}
