// Per-endpoint admission for webhook attempts in one process. At most `maxInFlight` attempts
// to an endpoint run at once; the others wait in line for a free one, for at most the time the
// caller gives, so a fast endpoint's burst flows at its own pace and a hanging one gives its
// waiters' slots back when their wait runs out.
interface Line {
  running: number;
  waiters: Array<() => void>;
}

export class EndpointGate {
  readonly #lines = new Map<string, Line>();
  readonly #maxInFlight: number;

  constructor(maxInFlight: number) {
    this.#maxInFlight = maxInFlight;
  }

  /** True with a slot held (give it back with release), false when waitMs passed first. */
  acquire(endpoint: string, waitMs: number): Promise<boolean> {
    const line = this.#lines.get(endpoint) ?? { running: 0, waiters: [] };
    this.#lines.set(endpoint, line);
    if (line.running < this.#maxInFlight) {
      line.running++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const admit = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        line.waiters.splice(line.waiters.indexOf(admit), 1);
        resolve(false);
      }, waitMs);
      line.waiters.push(admit);
    });
  }

  /** Hands the slot to the next in line, or frees it. */
  release(endpoint: string): void {
    const line = this.#lines.get(endpoint);
    if (!line) return;
    const next = line.waiters.shift();
    if (next) {
      next();
      return;
    }
    line.running--;
    if (line.running <= 0) this.#lines.delete(endpoint);
  }
}
