// Helpers publishers share: the delay between processing checks, and reading what earlier calls
// stored in a target's progress. The publishing capability itself is in publishing-types.ts.
import type { PublishProgress } from './publishing-types.ts';

/** Delay before the next processing check: 1 s, 2 s, 4 s … up to a minute. */
export function processingDelay(checks: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, checks));
}

/** Reads a string kept in progress. */
export function progressString(progress: PublishProgress, key: string): string | null {
  const value = progress[key];
  return typeof value === 'string' ? value : null;
}

export function progressNumber(progress: PublishProgress, key: string): number {
  const value = progress[key];
  return typeof value === 'number' ? value : 0;
}
