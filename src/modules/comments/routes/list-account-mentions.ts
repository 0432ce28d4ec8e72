import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { platformsOffering } from '../../../platforms/registry.ts';
import { listMentions } from '../service.ts';

export function listAccountMentions(api: Api): void {
  api.get(
    '/accounts/:id/mentions',
    {
      schema: {
        operationId: 'listAccountMentions',
        tags: ['Comments'],
        summary: `Posts or media that name or tag the account, newest first (${platformsOffering('mentionReader')})`,
        params: IdParams,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: '25 when absent.' })) }),
        response: { 200: Type.Object({ mentions: Type.Array(Type.Ref('Mention')) }), ...errorResponses(400, 403, 404, 409, 502) },
      },
    },
    async (request) => ({ mentions: await listMentions(request.server.deps, tenantOf(request), request.params.id, request.query.limit ?? 25) }),
  );
}
