// `post.dispatch`: at scheduledFor a scheduled post becomes queued and its first target is
// released. The post row decides: a post deleted, published now, or sent back for approval in
// the meantime is left alone.
import type { AppDeps } from '../../../deps.ts';
import { defineJob } from '../../../jobs/catalog.ts';
import { postDispatch } from './kinds.ts';
import { deliveryStoreOf } from './delivery-store.ts';

export function postDispatchJob(deps: Pick<AppDeps, 'store' | 'clock'>) {
  return defineJob(postDispatch, {
    timeoutMs: 30_000,
    run: ({ postId }) => deliveryStoreOf(deps.store).dispatch(deps.store, postId, deps.clock.now()),
  });
}
