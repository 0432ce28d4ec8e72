// Fills an instagram mention's text and author before it is recorded: the `mentions` webhook
// carries ids only (platforms.md §8.4), and the account node reads the mentioning comment or
// caption from them (§2.7). The read happens before the job's transaction, with the token of
// an active account of that Instagram account (the oldest first; another organization's copy
// when that one fails). A read that fails leaves the mention as the webhook had it (empty text, no author),
// and says why in the stored webhook's note, so a deleted comment or a lost permission never
// keeps the mention from being recorded. A transient failure is retried by the job first, while
// it has attempts left.
import type { AppDeps } from '../../deps.ts';
import { PlatformError } from '../../platforms/errors.ts';
import { credentialsOf } from '../accounts/credentials.ts';
import type { InboundComment } from './envelope.ts';

/** Ids go into a field modifier (`comment_id(…)`): nothing but an id's characters. */
const ID = /^[\w-]+$/;

export interface Attempt {
  attempt: number;
  maxAttempts: number;
}

/** Reads each instagram mention's content in place; answers notes on the reads that failed. */
export async function fillMentions(deps: Pick<AppDeps, 'store' | 'sealer' | 'platforms'>, items: InboundComment[], attempt: Attempt): Promise<string[]> {
  const notes: string[] = [];
  const reader = deps.platforms.of('instagram')?.mentionReader;
  for (const item of items) {
    if (item.platform !== 'instagram' || item.kind !== 'mention' || !reader) continue;
    const mediaId = item.platformPostId ?? '';
    const commentId = item.comment.id !== mediaId ? item.comment.id : null;
    const what = commentId ? `comment ${commentId}` : `media ${mediaId}`;
    if (!ID.test(mediaId) || (commentId !== null && !ID.test(commentId))) {
      notes.push(`mention ${what} not read: its ids are not ids`);
      continue;
    }
    const accounts = await deps.store.db
      .selectFrom('accounts')
      .selectAll()
      .where('platform', '=', 'instagram')
      .where('platform_user_id', '=', item.accountPlatformId)
      .where('status', '=', 'active')
      .orderBy('connected_at')
      .execute();
    if (!accounts.length) {
      notes.push(`mention ${what} not read: no active account to read it with`);
      continue;
    }
    // A Meta retry of a mention every account recorded already: nothing will be emitted, so nothing to read.
    const known = await deps.store.db.selectFrom('inbox_events').select('account_id').where('account_id', 'in', accounts.map((a) => a.id)).where('kind', '=', 'mention').where('dedupe_key', '=', item.dedupeKey).execute();
    if (known.length === accounts.length) continue;
    let failure: PlatformError | null = null;
    // Each organization's copy of the account sees the same comment: the first token that reads it will do.
    for (const account of accounts) {
      try {
        const content = await reader.mentioned(credentialsOf(account, deps.sealer), { mediaId, commentId });
        item.comment = { ...item.comment, text: content.text, username: content.username };
        failure = null;
        break;
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        if (error.retryable && attempt.attempt < attempt.maxAttempts) throw error;
        failure = error;
      }
    }
    if (failure) notes.push(`mention ${what} recorded without its text: the read failed (${failure.kind}: ${failure.message})`);
  }
  return notes;
}
