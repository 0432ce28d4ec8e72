// A post target's stored status after a delivery step, as the outcome label of
// socialapi_post_targets_total: pending again means a retry was scheduled, publishing means the
// platform is still processing and a check is scheduled.
import type { TargetStatus } from '../db/schema.ts';
import type { PostTargetOutcome } from './metrics.ts';

export function targetOutcome(status: TargetStatus): PostTargetOutcome {
  switch (status) {
    case 'published':
      return 'published';
    case 'failed':
      return 'failed';
    case 'pending':
      return 'retrying';
    case 'publishing':
      return 'processing';
    default: {
      const unknown: never = status;
      throw new Error(`unknown target status ${String(unknown)}`);
    }
  }
}
