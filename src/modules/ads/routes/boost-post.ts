import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { boostPost as boost } from '../boost.ts';
import { AccountIdField, AdAccountIdField, BudgetInput, Confirm, TargetingSpec } from '../schemas.ts';

export function boostPost(api: Api): void {
  api.post(
    '/ads/boost',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'boostPost',
        tags: ['Ads'],
        summary: 'Boost a published facebook post: campaign, ad set, creative and ad, all created PAUSED (confirm: true required)',
        body: Type.Object({
          accountId: AccountIdField,
          adAccountId: AdAccountIdField,
          postId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A post of this service published on the account.' })),
          platformPostId: Type.Optional(Type.String({ pattern: '^[0-9]{1,30}(_[0-9]{1,30})?$', description: "The Page post's id ({page-id}_{post-id}, or the post id alone)." })),
          budget: BudgetInput,
          schedule: Type.Optional(Type.Object({ startTime: Type.Optional(Type.String({ format: 'date-time' })), endTime: Type.Optional(Type.String({ format: 'date-time' })) })),
          targeting: Type.Optional(TargetingSpec),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
          confirm: Type.Optional(Confirm),
        }),
        response: {
          201: Type.Object({
            campaignId: Type.String(),
            adSetId: Type.String(),
            creativeId: Type.String(),
            adId: Type.String(),
            adAccountId: Type.String(),
            objectStoryId: Type.String(),
            status: Type.Literal('PAUSED'),
            currency: Type.String(),
            budget: BudgetInput,
          }),
          ...errorResponses(400, 403, 404, 409, 502),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await boost(request.server.deps, tenantOf(request), callerOf(request), request.body)),
  );
}
