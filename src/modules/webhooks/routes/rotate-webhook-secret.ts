import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentWebhook } from '../schemas.ts';
import { rotateWebhookSecret as rotate } from '../service.ts';

export function rotateWebhookSecret(api: Api): void {
  api.post(
    '/webhooks/:id/secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        tags: ['Webhooks'],
        summary: 'Give an endpoint a new signing secret, returned this once; the old one keeps signing for 24 hours',
        description:
          'Beyond the contract. From now on X-SocialAPI-Signature is made with the new secret; for 24 hours (previousSecretExpiresAt) each delivery also carries X-SocialAPI-Signature-Previous, the same HMAC made with the secret it replaced, so a receiver that accepts either header switches secrets without losing an event. Rotating again within those 24 hours makes the secret rotated out now the previous one.',
        params: IdParams,
        response: {
          200: Type.Object({
            webhook: Type.Intersect([Type.Ref('Webhook'), Type.Object({ secret: Type.String({ description: 'The new signing secret, shown only now.' }) })]),
          }),
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const { deps } = request.server;
      const rotated = await rotate(tenantOf(request), deps, request.params.id);
      if (!rotated) throw errors.notFound('Webhook');
      return { webhook: { ...presentWebhook(rotated.row, deps.clock.now()), secret: rotated.secret } };
    },
  );
}
