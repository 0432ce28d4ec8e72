// The platform-webhooks module: the Meta callback (public, checked by its signature), the job
// that processes what it stored, and the re-run of the rows left `unhandled` at a worker start.
import type { AppDeps } from '../../deps.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { platformEventJob } from './process-job.ts';
import { platformEventRerunJob } from './rerun-job.ts';
import { metaWebhook } from './routes/meta-webhook.ts';

export { queueUnhandledRerun } from './rerun-job.ts';

export const platformWebhookRoutes: RouteRegistrar[] = [metaWebhook];

export function platformWebhookJobs(deps: AppDeps) {
  return [platformEventJob(deps), platformEventRerunJob(deps)];
}
