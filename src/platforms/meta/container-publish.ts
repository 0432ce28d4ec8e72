// Publishing a Meta container (Instagram media_publish, Threads threads_publish) is one call on
// a container whose id is already saved. The container's status says whether it was published,
// but only once that call has ended on the platform: a call cut off by a crash or a timeout may
// still be running when the next attempt reads the status (FINISHED), and publishing again would
// then be refused ("already published") or, worse, race it. So the call is marked before it is
// made, and a later run that finds the mark waits until the call can no longer be in flight
// before it reads the status.
import type { Waiting } from '../create-once.ts';
import { PlatformError } from '../errors.ts';

export interface PublishMark {
  /** When a publish call began whose answer was never recorded (a number; stored progress is read as unknown). */
  publishingAt?: unknown;
}

/** A wait, when an earlier publish call of this container may still be running on the platform. */
export function earlierPublishRunning(mark: PublishMark, now: number, inFlightMs: number): Waiting | null {
  if (typeof mark.publishingAt !== 'number') return null;
  const over = mark.publishingAt + inFlightMs;
  return now < over ? { status: 'processing', checkAfterMs: over - now } : null;
}

/**
 * Makes the publish call with its mark committed first; a definite answer (the id, or any
 * answer the platform gave, even a refusal) clears the mark. The caller stores the id.
 */
export async function publishMarked<T>(mark: PublishMark, store: () => Promise<void>, now: number, publish: () => Promise<T>): Promise<T> {
  mark.publishingAt = now;
  await store();
  try {
    const result = await publish();
    delete mark.publishingAt;
    return result;
  } catch (error) {
    if (error instanceof PlatformError && error.details.status !== undefined) {
      delete mark.publishingAt;
      await store();
    }
    throw error;
  }
}
