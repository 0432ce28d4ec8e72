// The catalogue of job kinds the worker runs. Each capability adds its kinds here
// (post.deliver, webhook.send, account.refresh …), so one list shows all background work.
import type { TSchema } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { mediaCleanupJob } from '../modules/media/cleanup-job.ts';
import { accountRefreshJob } from '../modules/accounts/refresh-job.ts';
import { platformEventJob } from '../modules/platform-webhooks/process-job.ts';
import { webhookSendJob } from '../modules/webhooks/send-job.ts';
import { postDeliverJob } from '../modules/posts/delivery/deliver-job.ts';
import { postDispatchJob } from '../modules/posts/delivery/dispatch-job.ts';
import { retentionJob } from '../modules/retention/retention-job.ts';
import type { JobDefinition } from './catalog.ts';
import { createRegistry, type JobRegistry } from './catalog.ts';

export function jobDefinitions(deps: AppDeps): Array<JobDefinition<TSchema>> {
  return [webhookSendJob(deps), mediaCleanupJob(deps), accountRefreshJob(deps), platformEventJob(deps), postDispatchJob(deps), postDeliverJob(deps), retentionJob(deps)];
}

export function buildJobRegistry(deps: AppDeps, extra: Array<JobDefinition<TSchema>> = []): JobRegistry {
  return createRegistry([...jobDefinitions(deps), ...extra]);
}
