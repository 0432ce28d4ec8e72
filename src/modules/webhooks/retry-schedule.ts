// When to try a failed webhook delivery again: the schedule trusted senders use (Svix), as
// DESIGN §2 fixes it: 8 attempts in all, waiting 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after
// each failure (about 28 hours), ±20% jitter. A receiver's Retry-After is honoured up to twice
// the scheduled delay; a 429 or a timeout waits at least a minute.
export const MAX_ATTEMPTS = 8;
const DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const MINUTE = 60_000;

export interface FailedAttempt {
  /** 1-based number of the attempt that just failed, in the current cycle. */
  attempt: number;
  status: number | null;
  timedOut: boolean;
  /** Retry-After of the answer, in milliseconds, when it had a usable one. */
  retryAfterMs: number | null;
}

/** Delay before the next attempt, or null when the delivery has no attempts left. */
export function nextRetryDelay(failed: FailedAttempt, random: () => number = Math.random): number | null {
  if (failed.attempt >= MAX_ATTEMPTS) return null;
  const scheduled = DELAYS_MS[Math.min(failed.attempt, DELAYS_MS.length) - 1] ?? MINUTE;
  let delay = scheduled * (1 + 0.2 * (random() * 2 - 1));
  if (failed.retryAfterMs !== null) delay = Math.min(Math.max(delay, failed.retryAfterMs), scheduled * 2);
  if (failed.status === 429 || failed.timedOut) delay = Math.max(delay, MINUTE);
  return Math.round(delay);
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now; null when absent or unusable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
