import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { createCreative as create } from '../creatives.ts';
import { AccountIdField, AdAccountIdField, Confirm } from '../schemas.ts';

const HttpUrl = Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$' });

export function createCreative(api: Api): void {
  api.post(
    '/ads/creatives',
    {
      config: { idempotent: {} },
      schema: {
        operationId: 'createCreative',
        tags: ['Ads'],
        summary: 'Create a creative from a Page post, an Instagram post, or a link with message and image (confirm: true required)',
        body: Type.Object({
          accountId: Type.Optional(AccountIdField),
          adAccountId: Type.Optional(AdAccountIdField),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
          objectStoryId: Type.Optional(Type.String({ pattern: '^[0-9]{1,30}(_[0-9]{1,30})?$', description: 'A Page post ({page-id}_{post-id}, or the post id of the account\'s Page).' })),
          instagramMediaId: Type.Optional(Type.String({ pattern: '^[0-9]{1,30}$' })),
          instagramUserId: Type.Optional(Type.String({ pattern: '^[0-9]{1,30}$', description: 'Default: the connected Instagram account linked to the Page.' })),
          link: Type.Optional(HttpUrl),
          message: Type.Optional(Type.String({ minLength: 1, maxLength: 5000 })),
          imageUrl: Type.Optional(HttpUrl),
          headline: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          callToAction: Type.Optional(Type.Object({ type: Type.String({ pattern: '^[A-Z_]{1,40}$', description: 'LEARN_MORE, SHOP_NOW, SIGN_UP …' }), link: Type.Optional(HttpUrl) })),
          confirm: Type.Optional(Confirm),
        }),
        response: { 201: Type.Object({ creative: Type.Ref('AdCreative') }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request, reply) => reply.code(201).send({ creative: await create(request.server.deps, tenantOf(request), callerOf(request), request.body) }),
  );
}
