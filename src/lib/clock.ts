// Time is passed in, so tests of backoff, leases and expiry can move it instead of sleeping.
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
