// The accounts module: its operations, the resource schemas it adds to the API document, and
// its jobs (token refreshes).
import type { AppDeps } from '../../deps.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { Health } from './health.ts';
import { accountRefreshJob } from './refresh-job.ts';
import { accountResourceRoutes } from './routes/account-resources.ts';
import { getAccountHealth } from './routes/account-health.ts';
import { getAccount } from './routes/get-account.ts';
import { listAccounts } from './routes/list-accounts.ts';
import { listAccountHealth } from './routes/list-health.ts';
import { getPublishingLimit } from './routes/publishing-limit.ts';
import { updateAccount } from './routes/update-account.ts';
import { subscribeAccountWebhooks } from './routes/webhook-subscription.ts';
import { Account } from './schemas.ts';

export const accountRoutes: RouteRegistrar[] = [listAccounts, getAccount, updateAccount,
  listAccountHealth, getAccountHealth, getPublishingLimit, subscribeAccountWebhooks, ...accountResourceRoutes()];

export const accountSchemas = [Account, Health];

export function accountJobs(deps: AppDeps) {
  return [accountRefreshJob(deps)];
}
