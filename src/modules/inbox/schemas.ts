// Inbox events as GET /inbox/events shows them (DESIGN "Comments and inbox").
import { Type, type Static } from 'typebox';
import type { InboxEventKind, InboxEventRow } from '../../db/schema.ts';
import { Timestamp } from '../../http/schemas.ts';

export const INBOX_EVENT_KINDS: readonly InboxEventKind[] = ['comment', 'mention', 'reply', 'feed', 'message', 'other'];

export const InboxEventKindSchema = Type.String({ enum: [...INBOX_EVENT_KINDS] });

export const InboxEvent = Type.Object(
  {
    id: Type.String({ description: 'Also the eventId of the outgoing comment.received or mention.received.' }),
    kind: InboxEventKindSchema,
    platform: Type.String(),
    accountId: Type.String(),
    receivedAt: Timestamp('When the platform webhook reached the service.'),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The outgoing event\'s data (comment.received shape for comment, reply and mention).' }),
  },
  { $id: 'InboxEvent', title: 'InboxEvent' },
);

export type InboxEventView = Static<typeof InboxEvent>;

export function presentInboxEvent(row: Pick<InboxEventRow, 'id' | 'kind' | 'platform' | 'account_id' | 'received_at' | 'data'>): InboxEventView {
  return {
    id: row.id,
    kind: row.kind,
    platform: row.platform,
    accountId: row.account_id,
    receivedAt: new Date(row.received_at).toISOString(),
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}
