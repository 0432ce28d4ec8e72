import { Type } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { presentMedia } from '../schemas.ts';

export const MEDIA_LIST_LIMIT = 200;

export function listMedia(api: Api): void {
  api.get(
    '/media',
    {
      schema: {
        operationId: 'listMedia',
        tags: ['Media'],
        summary: 'The 200 most recent media of the organization, newest first',
        response: { 200: Type.Object({ media: Type.Array(Type.Ref('Media')) }), ...errorResponses() },
      },
    },
    async (request) => {
      const rows = await tenantOf(request).selectFrom('media').selectAll().orderBy('id', 'desc').limit(MEDIA_LIST_LIMIT).execute();
      return { media: rows.map((row) => presentMedia(row, request.server.deps.config)) };
    },
  );
}
