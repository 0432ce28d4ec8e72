// The platform-webhooks module: the Meta callback (public, checked by its signature) and the job
// that processes what it stored.
import type { AppDeps } from '../../deps.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { platformEventJob } from './process-job.ts';
import { metaWebhook } from './routes/meta-webhook.ts';

export const platformWebhookRoutes: RouteRegistrar[] = [metaWebhook];

export function platformWebhookJobs(deps: AppDeps) {
  return [platformEventJob(deps)];
}
