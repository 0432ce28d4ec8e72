import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentMedia } from '../schemas.ts';

export function getMedia(api: Api): void {
  api.get(
    '/media/:id',
    {
      schema: {
        operationId: 'getMedia',
        tags: ['Media'],
        summary: 'One media',
        params: IdParams,
        response: { 200: Type.Object({ media: Type.Ref('Media') }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const row = await tenantOf(request).selectFrom('media').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw errors.notFound('Media');
      return { media: presentMedia(row, request.server.deps.config) };
    },
  );
}
