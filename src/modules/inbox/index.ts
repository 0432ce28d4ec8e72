// The inbox module: inbound platform events as the API lists them. The platform-webhooks
// module's job records them (record.ts); this module has no jobs of its own yet.
import type { AppDeps } from '../../deps.ts';
import type { JobDefinition } from '../../jobs/catalog.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { listInboxEvents } from './routes/list-inbox-events.ts';
import { InboxEvent } from './schemas.ts';

export const inboxRoutes: RouteRegistrar[] = [listInboxEvents];

export const inboxSchemas = [InboxEvent];

export function inboxJobs(_deps: AppDeps): JobDefinition[] {
  return [];
}
