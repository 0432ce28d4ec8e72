// The sandbox's clock: real time plus an offset that tests (and the control API) move forward,
// so token expiry, code expiry, processing delays and 24-hour quotas are tested without sleeping.
import type { Clock } from '../../lib/clock.ts';

export interface SandboxClock extends Clock {
  /** Milliseconds since the epoch, as the simulated platforms see it. */
  now(): number;
  /** Moves time forward (never backward: platforms do not see time go back). */
  advance(ms: number): void;
  /** The offset from real time, for the control API's report. */
  offset(): number;
  /** Called after every advance (the scheduler of sandbox-time events listens here). */
  onAdvance(listener: () => void): void;
}

export function createSandboxClock(base: Clock = { now: () => Date.now() }): SandboxClock {
  let offset = 0;
  const listeners: Array<() => void> = [];
  return {
    now: () => base.now() + offset,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock can only move forward');
      offset += ms;
      for (const listener of listeners) listener();
    },
    offset: () => offset,
    onAdvance: (listener) => void listeners.push(listener),
  };
}

export const seconds = (ms: number): number => Math.floor(ms / 1000);
