// Events due at a moment of sandbox time (a WhatsApp message delivered a second after it was
// sent, a template approved after its review delay). They fire when real time reaches them, or
// at once when the control API moves the clock past them, so tests never sleep. Real timers are
// unref'd: a pending event never keeps the process alive.
import type { SandboxClock } from './clock.ts';

interface Due {
  at: number;
  seq: number;
  run: () => void;
}

const MAX_TIMEOUT = 2 ** 31 - 1;

export class SandboxTimers {
  readonly #clock: SandboxClock;
  #due: Due[] = [];
  #seq = 0;
  #timer: NodeJS.Timeout | null = null;
  #running = false;
  readonly #onRan: () => void;

  /** `onRan` hears when events have fired (the state changed without a request: persistence). */
  constructor(clock: SandboxClock, onRan: () => void = () => {}) {
    this.#clock = clock;
    this.#onRan = onRan;
    clock.onAdvance(() => this.run());
  }

  /** Runs `fn` once the sandbox clock reaches `at` (ms since the epoch). */
  at(at: number, fn: () => void): void {
    this.#due.push({ at, seq: this.#seq++, run: fn });
    this.#due.sort((a, b) => a.at - b.at || a.seq - b.seq);
    if (at <= this.#clock.now()) queueMicrotask(() => this.run());
    else this.#arm();
  }

  after(ms: number, fn: () => void): void {
    this.at(this.#clock.now() + ms, fn);
  }

  /** Fires everything due, in time order (events may schedule more). */
  run(): void {
    if (this.#running) return;
    this.#running = true;
    let ran = false;
    try {
      for (let next = this.#due[0]; next && next.at <= this.#clock.now(); next = this.#due[0]) {
        this.#due.shift();
        ran = true;
        next.run();
      }
    } finally {
      this.#running = false;
      this.#arm();
      if (ran) this.#onRan();
    }
  }

  pending(): number {
    return this.#due.length;
  }

  clear(): void {
    this.#due = [];
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const next = this.#due[0];
    if (!next) return;
    const wait = Math.min(MAX_TIMEOUT, Math.max(0, next.at - this.#clock.now()));
    this.#timer = setTimeout(() => this.run(), wait);
    this.#timer.unref();
  }
}
