// Delivery's writes on PostgreSQL: each a statement of data-modifying CTEs, one round trip,
// where the bench showed the round trips cost (a run's start, a dispatch, an attempt that ends
// its target: docs/architecture/delivery.md, figures in bench/RESULTS.md). The rest (a retry or a processing check
// scheduled, a closing statement that found the post held) is the portable transaction.
import type { DeliveryStore } from './delivery-store.ts';
import { recordClosing, recordReleasing } from './closing.ts';
import { recordInTransaction } from './portable-store.ts';
import { dispatchTogether } from './postgres-dispatch.ts';
import { startTogether } from './postgres-start.ts';

export const postgresDeliveryStore: DeliveryStore = {
  start: startTogether,
  dispatch: dispatchTogether,
  async record(store, step) {
    // The target has a next step (a retry, a processing check): the transaction.
    if (step.change.nextStepAt !== null) return recordInTransaction(store, step);
    if (step.target.released_next === 0 && step.nextWaiting) return recordReleasing(store, step);
    const closed = await recordClosing(store, step);
    if (closed === 'recorded_unsettled') return 'check_settled';
    if (closed === 'recorded') return 'settled_or_open';
    return recordInTransaction(store, step);
  },
};
