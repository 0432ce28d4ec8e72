// The one retry-delay function: exponential, capped, with ±jitter so that jobs failing together
// do not retry together.
export interface BackoffOptions {
  baseMs: number;
  factor: number;
  maxMs: number;
  /** Fraction of the delay added or removed at random (0.2 = ±20%). */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, factor: 4, maxMs: 3_600_000, jitter: 0.2 };

/** Delay after failed attempt number `attempt` (1-based). */
export function exponentialBackoff(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const raw = Math.min(options.maxMs, options.baseMs * options.factor ** Math.max(0, attempt - 1));
  const spread = raw * options.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(raw + spread));
}
