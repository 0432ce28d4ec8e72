// Waiting on a condition instead of sleeping: tests stay fast when things are quick and only
// fail, with a message naming what never happened, when they are truly stuck.
import { setTimeout as sleep } from 'node:timers/promises';

export type Truthy<T> = Exclude<T, false | 0 | 0n | '' | null | undefined>;

/**
 * Calls `condition` every `intervalMs` until it returns a truthy value, and resolves with that
 * value. Rejects after `timeoutMs`, or at once if `condition` throws.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, timeoutMs = 5000, what = 'the condition', intervalMs = 10): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}
