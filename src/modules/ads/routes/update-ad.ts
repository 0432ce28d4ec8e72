import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { updateAd as update } from '../ads.ts';
import { AccountIdField, Confirm, IdParams } from '../schemas.ts';
import { AdStatusInput } from './update-campaign.ts';

export function updateAd(api: Api): void {
  api.patch(
    '/ads/ads/:id',
    {
      config: { idempotent: { repeatable: true } },
      schema: {
        operationId: 'updateAd',
        tags: ['Ads'],
        summary: 'Rename, pause or activate (confirm: true) an ad',
        params: IdParams,
        body: Type.Object({ accountId: Type.Optional(AccountIdField), name: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })), status: Type.Optional(AdStatusInput), confirm: Type.Optional(Confirm) }),
        response: { 200: Type.Object({ ad: Type.Ref('Ad') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ ad: await update(request.server.deps, tenantOf(request), callerOf(request), request.params.id, request.body) }),
  );
}
