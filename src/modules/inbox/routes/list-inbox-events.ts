import { Type } from 'typebox';
import type { InboxEventKind } from '../../../db/schema.ts';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { InboxEventKindSchema, presentInboxEvent } from '../schemas.ts';

export function listInboxEvents(api: Api): void {
  api.get(
    '/inbox/events',
    {
      schema: {
        operationId: 'listInboxEvents',
        tags: ['Inbox'],
        summary: 'Inbound platform events (comments, replies, mentions …), newest first',
        querystring: Type.Object({
          kind: Type.Optional(InboxEventKindSchema),
          accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Only this account's events; an unknown or foreign account is 404." })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'At most this many events (50 when absent).' })),
        }),
        response: { 200: Type.Object({ events: Type.Array(Type.Ref('InboxEvent')) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { kind, accountId, limit } = request.query;
      if (accountId !== undefined && !(await tenant.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst())) {
        throw errors.notFound('Account');
      }
      const rows = await tenant
        .selectFrom('inbox_events')
        .select(['id', 'kind', 'platform', 'account_id', 'received_at', 'data'])
        .$if(kind !== undefined, (qb) => qb.where('kind', '=', (kind ?? '') as InboxEventKind))
        .$if(accountId !== undefined, (qb) => qb.where('account_id', '=', accountId ?? ''))
        .orderBy('id', 'desc')
        .limit(limit ?? 50)
        .execute();
      return { events: rows.map(presentInboxEvent) };
    },
  );
}
