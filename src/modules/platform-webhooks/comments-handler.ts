// The inbound handler of comments and mentions: Graph `changes` (meta-changes.ts) and Threads
// notifications (threads-changes.ts) become the inbox's comment, reply and mention events and the
// contract's comment.received / mention.received, for every organization's account of that
// Page, Instagram account or Threads user. An instagram mention's text and author are read from
// the platform first, outside the transaction (mention-details.ts).
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { Database } from '../../db/schema.ts';
import { recordInboundComment } from '../inbox/record.ts';
import type { InboundComment } from './envelope.ts';
import { inboundHandler } from './inbound-handler.ts';
import { fillMentions } from './mention-details.ts';
import { META_CHANGE_KINDS, parseMetaEnvelope } from './meta-changes.ts';
import { THREADS_KINDS } from './threads-changes.ts';

export const commentsHandler = inboundHandler({
  name: 'comments',
  kinds: [...META_CHANGE_KINDS, ...THREADS_KINDS],
  async parse(body, { deps, attempt, maxAttempts }) {
    const parsed = parseMetaEnvelope(body);
    const notes = await fillMentions(deps, parsed.items, { attempt, maxAttempts });
    return { items: parsed.items, ignored: parsed.ignored, notes };
  },
  async record(trx, deps, parsed, receivedAt, now) {
    let emitted = 0;
    for (const item of parsed.items) emitted += await recordComment(trx, deps, item, receivedAt, now);
    return emitted;
  },
});

/** Records the comment for every organization's account of that Page or Instagram account. */
async function recordComment(trx: Kysely<Database>, deps: Pick<AppDeps, 'store'>, item: InboundComment, receivedAt: number, now: number): Promise<number> {
  // The account's own comment (the Page or the Instagram account commenting) is no event.
  if (item.fromId !== null && item.fromId === item.accountPlatformId) return 0;
  const accounts = await trx
    .selectFrom('accounts')
    .select(['id', 'organization_id', 'platform', 'external_id'])
    .where('platform', '=', item.platform)
    .where('platform_user_id', '=', item.accountPlatformId)
    .execute();
  let emitted = 0;
  for (const account of accounts) {
    if (await recordInboundComment({ db: trx, store: deps.store, now }, account, item, receivedAt)) emitted++;
  }
  return emitted;
}
