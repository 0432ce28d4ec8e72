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

/** The units of a chain (a thread's posts and its first comment) kept in progress, in order. */
export function progressUnits<U>(progress: PublishProgress): U[] {
  return (Array.isArray(progress.units) ? progress.units : []) as U[];
}

/**
 * A chain's keepOnRetry: once any of its units is live, every unit as `keep` reduces it (the live
 * ones keep what names them on the platform); before that, nothing, so the target starts over.
 */
export function keepLiveUnits<U>(progress: PublishProgress, live: (unit: U) => boolean, keep: (unit: U) => U): PublishProgress {
  const units = progressUnits<U>(progress);
  return units.some(live) ? { units: units.map(keep) } : {};
}

export interface PublishWarning {
  /** The platformSpecificData key the warning is about. */
  key: string;
  message: string;
}

/**
 * Notes, in the target's progress, something that went otherwise than asked while the post still
 * went out (YouTube refused the thumbnail): the API lists it among the target's warnings. Once per key.
 */
export function addPublishWarning(progress: PublishProgress, warning: PublishWarning): void {
  const notes = publishWarnings(progress).filter((w) => w.key !== warning.key);
  progress.warnings = [...notes, warning];
}

/** The warnings a publisher noted in a target's progress. */
export function publishWarnings(progress: PublishProgress): PublishWarning[] {
  const notes = progress.warnings;
  if (!Array.isArray(notes)) return [];
  return notes.filter((w): w is PublishWarning => typeof w === 'object' && w !== null && typeof (w as PublishWarning).key === 'string' && typeof (w as PublishWarning).message === 'string');
}
