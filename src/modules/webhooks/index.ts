// The webhooks module: endpoints and deliveries, their resource schemas, and the send job.
import type { AppDeps } from '../../deps.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { createWebhook } from './routes/create-webhook.ts';
import { deleteWebhook } from './routes/delete-webhook.ts';
import { listDeliveries } from './routes/list-deliveries.ts';
import { listWebhooks } from './routes/list-webhooks.ts';
import { redeliverWebhook } from './routes/redeliver.ts';
import { rotateWebhookSecret } from './routes/rotate-webhook-secret.ts';
import { testWebhook } from './routes/test-webhook.ts';
import { updateWebhook } from './routes/update-webhook.ts';
import { Delivery, Webhook } from './schemas.ts';
import { webhookSendJob } from './send-job.ts';

export const webhookRoutes: RouteRegistrar[] = [listWebhooks, createWebhook, updateWebhook, rotateWebhookSecret, deleteWebhook, listDeliveries, testWebhook, redeliverWebhook];

export const webhookSchemas = [Webhook, Delivery];

export function webhookJobs(deps: AppDeps) {
  return [webhookSendJob(deps)];
}
