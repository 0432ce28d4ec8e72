// The catalogue of job kinds the worker runs. Each capability adds its kinds here
// (post.deliver, webhook.send, account.refresh …), so one list shows all background work.
import type { TSchema } from 'typebox';
import type { JobDefinition } from './catalog.ts';
import { createRegistry, type JobRegistry } from './catalog.ts';

export const jobDefinitions: Array<JobDefinition<TSchema>> = [];

export function buildJobRegistry(extra: Array<JobDefinition<TSchema>> = []): JobRegistry {
  return createRegistry([...jobDefinitions, ...extra]);
}
