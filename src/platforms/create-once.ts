// Single-step platform calls that create something (a feed post, a reddit submission, a first
// comment, a TikTok publish) have no id to store before they are made, so a crash or a lost
// answer leaves no way to tell whether the platform acted. createOnce() makes such a call
// visible and never repeats it blindly:
//
// 1. Before the call, a marker (`progress.inflight[key]`: when the call began) is committed.
//    A new attempt's claim commits one in advance (`inflight['*']`, see premarkedProgress): a
//    first call made soon after needs no commit of its own, and a later run reads `*` as the
//    marker of the first call it comes to.
// 2. A definite answer clears it: the result (which the caller saves with the marker gone), or a
//    refusal (any PlatformError but `transient`: the platform said no, nothing was made).
// 3. A marker found on a later run means the call's fate is unknown (the process died, or the
//    answer never came). The call is then reconciled before anything is sent again: once it can
//    no longer be in flight (`inFlightMs` after it began, plus the platform's own settle time),
//    `find` looks on the platform for what it may have made since it began, and adopts it.
//    Only when nothing is found is the call made again.
//
// Reconciliation reads the platform, so a failure to read it is handled like any platform
// failure (transient: retried later, the marker kept), except that a permanent one cannot
// be allowed to turn into a second post: the target fails with a message saying so. So does a
// look that could not see back as far as the call (look-back.ts).
import { PlatformError } from './errors.ts';
import { LookTooShort } from './look-back.ts';
import type { PublishOutcome, PublishProgress } from './types.ts';

/** Platform and service clocks may disagree by this much; `find` looks back this far. */
export const CLOCK_SKEW_MS = 60_000;

export interface OnceContext {
  platform: string;
  progress: PublishProgress;
  /** Commits the progress (resolves after it is durable). */
  store: () => Promise<void>;
  now: () => number;
  /** How long a call may still be running on the platform after it began. */
  inFlightMs: number;
}

export interface OnceStep<T> {
  /** Names the call in `progress.inflight`; unique within one target. */
  key: string;
  make: () => Promise<T>;
  /** What an interrupted call made, if anything, looking at what the platform created since `sinceMs`. */
  find: (sinceMs: number) => Promise<T | null>;
  /**
   * Extra time after `inFlightMs` before a missing result counts as never made: platforms that
   * list a post only once it has finished processing (TikTok) need a few minutes.
   */
  settleMs?: number;
  /** Delay between looks while settling (default 15 s). */
  lookEveryMs?: number;
  /**
   * Why what this call makes cannot be looked for (a Page draft, a private TikTok post), if so:
   * an interrupted call then fails the target instead of being made again, unless the user
   * publishes the post again.
   */
  unfindable?: string | undefined;
}

export type Waiting = Extract<PublishOutcome, { status: 'processing' }>;

export const isWaiting = (value: unknown): value is Waiting =>
  typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'processing' && 'checkAfterMs' in value;

/** The failure of a look that could not see back to the interrupted call: never retried (more posts only make it worse). */
function unconfirmed(platform: string, error: LookTooShort): PlatformError {
  return new PlatformError(
    'permanent',
    `the call that publishes this was cut off, and whether it went through could not be confirmed (${error.message}); it was not sent again, to avoid a duplicate: check the account, and publish the post again if it is missing`,
    { platform },
  );
}

/** A call whose fate is unknown: when it began, and whether it has ended (an answer that said nothing definite came back). */
interface Marker {
  at: number;
  over?: true;
  /** The user published the post again after it failed: a call that cannot be looked for is made again. */
  retry?: true;
}

/** The markers kept in a progress (an empty record when there are none; `mark` adds the field). */
function markers(progress: PublishProgress): Record<string, Marker> {
  const value = progress.inflight;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, Marker>) : {};
}

/** Sets a marker, adding the `inflight` field to the progress when it is the first. */
function mark(progress: PublishProgress, key: string, marker: Marker): Record<string, Marker> {
  const all = markers(progress);
  all[key] = marker;
  progress.inflight = all;
  return all;
}

/** The key of the marker a new attempt's claim commits, standing for its first call. */
const FIRST_CALL = '*';
/**
 * How soon after the claim the first call must begin for the claim's marker to stand for it.
 * The marker is older than the call by at most this, which the in-flight margin absorbs.
 */
const PREMARK_WINDOW_MS = 2_000;

/** The progress a fresh attempt's claim stores at `at`: a marker for its first call, should one begin soon. */
export const premarkedProgress = (at: number): string => JSON.stringify({ inflight: { [FIRST_CALL]: { at } } });

/**
 * Whether `progress`, about to be committed by an attempt whose claim stored premarkedProgress
 * at `premarkedAt` (and nothing since), says no more than that: only the marker of one call
 * that began within the window. The commit can then be skipped.
 */
export function coveredByPremark(progress: PublishProgress, premarkedAt: number, now: number): boolean {
  if (now - premarkedAt > PREMARK_WINDOW_MS || Object.keys(progress).some((key) => key !== 'inflight')) return false;
  const all = Object.values(markers(progress));
  const [only] = all;
  return all.length === 1 && only !== undefined && only.over === undefined && only.retry === undefined && only.at >= premarkedAt;
}

/** Whether a target's progress holds a call whose outcome was never recorded. */
export function hasInterruptedCall(progress: PublishProgress): boolean {
  const value = progress.inflight;
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

/**
 * An interrupted call that the delivery has not counted yet: a run that finds one counts a new
 * attempt (the call may have gone out twice) and notes it, so the reconciling runs that follow
 * do not count it again.
 */
export function uncountedInterruption(progress: PublishProgress): boolean {
  return hasInterruptedCall(progress) && progress.interruptionCounted !== true;
}

/** Keeps only the markers of calls whose fate is unknown (a fresh attempt must still reconcile them). */
export function carryOverMarkers(progress: PublishProgress): PublishProgress {
  if (!hasInterruptedCall(progress)) return {};
  const kept = Object.fromEntries(Object.entries(markers(progress)).map(([key, marker]) => [key, { ...marker, retry: true }]));
  return { inflight: kept };
}

/** Whether the target has made no platform call yet (only carried-over markers, if any). */
export function isFresh(progress: PublishProgress): boolean {
  return Object.keys(progress).every((key) => key === 'inflight' || key === 'interruptionCounted');
}

/**
 * Makes the call once, or adopts what an earlier, interrupted call made. Answers the result
 * (with the marker cleared in `progress`; the caller stores it with the result) or a wait.
 */
export async function createOnce<T>(ctx: OnceContext, step: OnceStep<T>): Promise<T | Waiting> {
  let inflight = markers(ctx.progress);
  // A claim's marker found by a later run: the first call this flow makes is the one it stands for.
  const first = inflight[FIRST_CALL];
  if (first && !inflight[step.key]) {
    inflight[step.key] = first;
    delete inflight[FIRST_CALL];
  }
  const marker = inflight[step.key];
  if (marker && step.unfindable !== undefined && !marker.retry) {
    throw new PlatformError(
      'permanent',
      `the call that publishes this was cut off, and whether it went through cannot be checked (${step.unfindable}); it was not sent again, to avoid a duplicate: check the account, and publish the post again if it is missing`,
      { platform: ctx.platform },
    );
  }
  if (marker && step.unfindable === undefined) {
    const now = ctx.now();
    // A call cut off without an answer may still be running on the platform: wait it out.
    const lookFrom = marker.over ? now : marker.at + ctx.inFlightMs;
    if (now < lookFrom) return { status: 'processing', checkAfterMs: lookFrom - now };
    let found: T | null;
    try {
      found = await step.find(marker.at - CLOCK_SKEW_MS);
    } catch (error) {
      // The account posted more since the call than a look reads (look-back.ts): nothing found
      // does not mean nothing made. Left to a person, as for an unfindable call, unless one
      // has already checked and published the post again.
      if (error instanceof LookTooShort && marker.retry) found = null;
      else if (error instanceof LookTooShort) throw unconfirmed(ctx.platform, error);
      else if (error instanceof PlatformError && !error.retryable) {
        throw new PlatformError(error.kind === 'auth' ? 'auth' : 'permanent', `an interrupted call may have published this already, and checking failed (${error.message}); it was not sent again`, error.details);
      } else throw error;
    }
    if (found !== null) {
      delete inflight[step.key];
      return found;
    }
    const settledAt = lookFrom + (step.settleMs ?? 0);
    if (now < settledAt) return { status: 'processing', checkAfterMs: Math.min(step.lookEveryMs ?? 15_000, settledAt - now) };
  }
  const began: Marker = { at: ctx.now() };
  inflight = mark(ctx.progress, step.key, began);
  delete ctx.progress.interruptionCounted;
  await ctx.store();
  let result: T;
  try {
    result = await step.make();
  } catch (error) {
    // A refusal made nothing; anything else (no answer, a 5xx) may have. An answer, even a
    // 5xx, means the call is over: the next look need not wait for it.
    if (error instanceof PlatformError && error.kind !== 'transient') delete inflight[step.key];
    else if (error instanceof PlatformError && error.details.status !== undefined) began.over = true;
    await ctx.store();
    throw error;
  }
  delete inflight[step.key];
  return result;
}
