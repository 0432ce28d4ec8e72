// Recording what one delivery step achieved (delivery-store.ts): the state machine decides the
// target's change (target-change.ts), the store records it with what follows from it (the next
// step's job, the release of the next target after a first attempt, and, once every target has
// settled, the post's outcome and its event: settlement.ts).
import type { TargetStatus } from '../../../db/schema.ts';
import { deliveryStoreOf, type DeliveryDb, type DeliveryStore } from './delivery-store.ts';
import type { Lease } from './lease-fence.ts';
import { settleIfOver } from './settle.ts';
import { changeOf, type StepOutcome, type Target } from './target-change.ts';

export type { StepOutcome } from './target-change.ts';

/**
 * Records the step's outcome while the run still holds `lease` (else throws, recording nothing),
 * and returns the target's new status (pending: a retry is scheduled). `nextWaiting`: a later
 * target waits for this one's first attempt (as read when the run began). `via`: the store's
 * implementation (a test may give the portable one on PostgreSQL).
 */
export async function recordOutcome(store: DeliveryDb, now: number, organizationId: string, target: Target, outcome: StepOutcome, lease: Lease, nextWaiting = false, via: DeliveryStore = deliveryStoreOf(store)): Promise<TargetStatus> {
  const change = changeOf(target, outcome, now);
  const recorded = await via.record(store, { organizationId, target, outcome, change, lease, nextWaiting, now });
  if (recorded === 'check_settled') await settleIfOver(store, now, organizationId, target.post_id);
  return change.status;
}
