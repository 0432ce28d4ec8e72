// Recording one inbound comment or mention for one account: the inbox event and, when the row is
// new, the contract's comment.received / mention.received with the same id as its eventId (and
// as the outgoing event's own id). The unique (account_id, kind, dedupe_key) index decides
// "new": a platform retry, a re-run of the same stored webhook or a concurrent run finds the
// row there and emits nothing. The caller's transaction holds both, with the stored webhook's
// status.
import { prepare } from '../../db/prepared.ts';
import type { InboxEventKind } from '../../db/schema.ts';
import type { EventData } from '../events/catalog.ts';
import { emitEvent, type EmitContext } from '../events/emit.ts';
import { newId } from '../../lib/ids.ts';
import type { InboundComment } from '../platform-webhooks/envelope.ts';

export interface InboxAccount {
  id: string;
  organization_id: string;
  platform: string;
  external_id: string | null;
}

/** What recording needs of an inbound comment: Meta's webhooks and the reddit poll both give it. */
export type RecordedComment = Pick<InboundComment, 'kind' | 'dedupeKey' | 'platformPostId' | 'comment'>;

// Compiled once (db/prepared.ts): every inbound comment runs both.
const publishedTarget = prepare((db, accountId: string, platformPostId: string) =>
  db.selectFrom('post_targets').select('post_id').where('account_id', '=', accountId).where('platform_post_id', '=', platformPostId).where('status', '=', 'published').limit(1),
);
const insertInboxEvent = prepare((db, id: string, organizationId: string, accountId: string, platform: string, kind: InboxEventKind, dedupeKey: string, data: string, receivedAt: number) =>
  db
    .insertInto('inbox_events')
    .values({ id, organization_id: organizationId, account_id: accountId, platform, kind, dedupe_key: dedupeKey, data, received_at: receivedAt })
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'dedupe_key']).doNothing()),
);

/** True when the event is new and was emitted. */
export async function recordInboundComment(ctx: EmitContext, account: InboxAccount, item: RecordedComment, receivedAt: number): Promise<boolean> {
  const { db, now } = ctx;
  // Our post, when one of the account's published targets is that platform post.
  const target = item.platformPostId ? (await publishedTarget.execute(db, account.id, item.platformPostId)).rows[0] : undefined;
  const id = newId('event', now);
  const data: EventData<'comment.received'> = {
    eventId: id,
    platform: account.platform,
    accountId: account.id,
    externalId: account.external_id,
    postId: target?.post_id ?? null,
    platformPostId: item.platformPostId,
    comment: item.comment,
    receivedAt: new Date(receivedAt).toISOString(),
  };
  const inserted = await insertInboxEvent.execute(db, id, account.organization_id, account.id, account.platform, item.kind, item.dedupeKey, JSON.stringify(data), receivedAt);
  if (!inserted.numAffectedRows) return false;
  await emitEvent(ctx, account.organization_id, item.kind === 'mention' ? 'mention.received' : 'comment.received', data, { id });
  return true;
}
