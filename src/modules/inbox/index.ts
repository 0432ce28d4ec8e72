// The inbox module: inbound platform events as the API lists them. The platform-webhooks
// module's job records Meta's (record.ts); this module's own jobs poll the comments and the
// mentions of the platforms that send no webhooks for them (comment-poll-job.ts,
// mention-poll-job.ts), and every worker start queues both.
import type { AppDeps } from '../../deps.ts';
import type { JobDefinition } from '../../jobs/catalog.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { commentPollJob } from './comment-poll-job.ts';
import { queueCommentPoll } from './comment-poll-schedule.ts';
import { mentionPollJob, queueMentionPoll } from './mention-poll-job.ts';
import { listInboxEvents } from './routes/list-inbox-events.ts';
import { InboxEvent } from './schemas.ts';

export const inboxRoutes: RouteRegistrar[] = [listInboxEvents];

export const inboxSchemas = [InboxEvent];

export function inboxJobs(deps: AppDeps): JobDefinition[] {
  return [commentPollJob(deps), mentionPollJob(deps)];
}

/** Queued when a worker starts: each poll's next tick (one job each however many workers). */
export async function queueInboxPolls(deps: Pick<AppDeps, 'store' | 'clock' | 'config'>): Promise<void> {
  await queueCommentPoll(deps.store.db, deps.store, deps.clock.now(), deps.config.commentPollMs);
  await queueMentionPoll(deps.store.db, deps.store, deps.clock.now(), deps.config.commentPollMs);
}
