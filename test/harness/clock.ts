// A clock tests move by hand, so schedules of minutes or hours run in milliseconds.
import type { Clock } from '../../src/lib/clock.ts';

export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.now()) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
