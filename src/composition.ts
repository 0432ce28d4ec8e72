// The composition root: the one place that knows every module. Each module's index exports its
// routes, the resource schemas it adds to the API document and its jobs; this file joins them in
// order, and the app (app.ts) and the entry points (main/) take the joined lists from here.
// Adding a module is one import and one entry per list below.
// Route order is the order of operations in docs/openapi.json; job order is the order in which
// the worker first meets each lane.
import type { AppDeps } from './deps.ts';
import { randomBytes } from 'node:crypto';
import type { Authenticator, InternalBearer } from './http/caller.ts';
import { isAccessToken, mcpTokenAuthenticator } from './mcp/oauth/token-authenticator.ts';
import type { AppRoutes } from './http/routes.ts';
import { createRegistry, type JobDefinition, type JobRegistry } from './jobs/catalog.ts';
import { timeJobRuns } from './metrics/job-metrics.ts';
import { accountJobs, accountRoutes, accountSchemas } from './modules/accounts/index.ts';
import { adRoutes, adSchemas } from './modules/ads/index.ts';
import { analyticsJobs, analyticsRoutes, analyticsSchemas, queueAnalyticsSnapshots } from './modules/analytics/index.ts';
import { commentRoutes, commentSchemas } from './modules/comments/index.ts';
import { connectRoutes, connectSchemas } from './modules/connect/index.ts';
import { DASHBOARD_PREFIX, dashboardPlugin } from './modules/dashboard/index.ts';
import { conversationRoutes, conversationSchemas } from './modules/conversations/index.ts';
import { inboxJobs, inboxRoutes, inboxSchemas, queueInboxPolls } from './modules/inbox/index.ts';
import { keyAuthenticator } from './modules/keys/index.ts';
import { mediaFileRoutes, mediaJobs, mediaRoutes, mediaSchemas } from './modules/media/index.ts';
import { platformWebhookJobs, platformWebhookRoutes, queueUnhandledRerun } from './modules/platform-webhooks/index.ts';
import { postJobs, postRoutes, postSchemas } from './modules/posts/index.ts';
import { queueRetention, retentionJobs } from './modules/retention/index.ts';
import { webhookJobs, webhookRoutes, webhookSchemas } from './modules/webhooks/index.ts';
import { whatsappRoutes, whatsappSchemas } from './modules/whatsapp/index.ts';

export const appRoutes: AppRoutes = {
  api: [...accountRoutes, ...connectRoutes, ...platformWebhookRoutes, ...whatsappRoutes, ...mediaRoutes, ...postRoutes, ...webhookRoutes, ...inboxRoutes, ...commentRoutes, ...conversationRoutes, ...analyticsRoutes, ...adRoutes],
  root: [...mediaFileRoutes],
  schemas: [...accountSchemas, ...connectSchemas, ...mediaSchemas, ...postSchemas, ...webhookSchemas, ...inboxSchemas, ...commentSchemas, ...conversationSchemas, ...whatsappSchemas, ...analyticsSchemas, ...adSchemas],
};

/** The dashboard's pages, outside /api/v1 (a plugin of its own: cookies, forms, HTML errors). */
export const dashboard = { plugin: dashboardPlugin, prefix: DASHBOARD_PREFIX };

/** Who is behind an API key: the keys module answers for the app's auth hook. */
export function createAuthenticator(deps: Pick<AppDeps, 'store'>): Authenticator {
  return keyAuthenticator(deps.store);
}

/** MCP access tokens, which the API takes only from the tool calls of /mcp (a per-process secret header). */
export function createMcpAccessTokens(deps: Pick<AppDeps, 'store' | 'clock'>): InternalBearer {
  return { accepts: isAccessToken, authenticator: mcpTokenAuthenticator(deps), header: 'x-socialapi-mcp-call', secret: randomBytes(32).toString('base64url') };
}

/** Every job kind the worker runs, with its handler. */
export function jobDefinitions(deps: AppDeps): JobDefinition[] {
  return [...webhookJobs(deps), ...mediaJobs(deps), ...accountJobs(deps), ...platformWebhookJobs(deps), ...postJobs(deps), ...retentionJobs(deps), ...inboxJobs(deps), ...analyticsJobs(deps)];
}

export function buildJobRegistry(deps: AppDeps, extra: JobDefinition[] = []): JobRegistry {
  return createRegistry(timeJobRuns([...jobDefinitions(deps), ...extra], deps.metrics));
}

/** What a worker queues when it starts (each de-duplicated, so any number of workers may). */
export async function queueStandingJobs(deps: AppDeps): Promise<void> {
  await queueRetention(deps);
  await queueUnhandledRerun(deps);
  await queueInboxPolls(deps);
  await queueAnalyticsSnapshots(deps);
}
