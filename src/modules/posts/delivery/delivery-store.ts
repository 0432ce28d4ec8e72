// The writes of post delivery, behind one interface with an implementation per store kind. The
// state machine (target-change.ts: what a step's outcome does to its target; settlement.ts:
// what the post becomes, with its event) is written once and handed to the store as decided
// values; a store only chooses how to write them. The portable store runs each write in turn,
// in a transaction where they must hold together (SQLite, where a statement costs no round
// trip). PostgreSQL folds them into statements of data-modifying CTEs, one round trip each,
// and falls back to the portable writes where a statement cannot decide alone.
import type { Store } from '../../../db/database.ts';
import type { Lease } from './lease-fence.ts';
import { portableDeliveryStore } from './portable-store.ts';
import { postgresDeliveryStore } from './postgres-store.ts';
import type { StartedTarget, UnsettledPost } from './target-read.ts';
import type { StepOutcome, Target, TargetChange } from './target-change.ts';

export type DeliveryDb = Pick<Store, 'db' | 'caps'>;

/** One step's outcome as the state machine decided it, for the store to record. */
export interface RecordedStep {
  organizationId: string;
  target: Target;
  outcome: StepOutcome;
  change: TargetChange;
  /** The run's lease: every write is fenced by it (lease-fence.ts). */
  lease: Lease;
  /** A later target waited for this one's first attempt, as read when the run began (a hint: the store checks again). */
  nextWaiting: boolean;
  now: number;
}

/**
 * Whether the post may be over and is not settled yet: the caller settles it under its lock
 * (settleIfOver). `settled_or_open`: the post was settled, or one of its targets is still open.
 */
export type Recorded = 'settled_or_open' | 'check_settled';

export interface DeliveryStore {
  /**
   * The start of a `post.deliver` run: the target read with its post and account; a pending one
   * claimed (publishing, one attempt more, the first call's marker stored while `lease` holds)
   * and its post moved from queued to publishing. Null when the target is gone, not due at
   * `dueAt`, or claimed by another run.
   */
  start(store: DeliveryDb, targetId: string, dueAt: number, now: number, lease: Lease): Promise<StartedTarget | UnsettledPost | null>;
  /** A scheduled post falls due: queued, and its first target released with its job. A post no longer scheduled is left alone. */
  dispatch(store: DeliveryDb, postId: string, now: number): Promise<void>;
  /**
   * Records a step while the run holds its lease (else throws, writing nothing): the target's
   * change with its next step's job; after a first attempt, the next waiting target released
   * with its job; once no target is open, the post's settlement (settlement.ts) with its event.
   */
  record(store: DeliveryDb, step: RecordedStep): Promise<Recorded>;
}

/** The store's implementation, by its capabilities (data-modifying CTEs: PostgreSQL). */
export const deliveryStoreOf = (store: Pick<Store, 'caps'>): DeliveryStore => (store.caps.writableCte ? postgresDeliveryStore : portableDeliveryStore);
