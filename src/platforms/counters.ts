// Counters every process of the service shares, for limits a platform counts per project rather
// than per account (YouTube's daily quota): an adapter takes from them before it calls. The
// service keeps them in its store, so every node counts against one total; without a store (the
// OpenAPI command, adapters built in unit tests) they live in the process.

export interface CounterWindow {
  /** The time of the call. */
  now: number;
  /** When the counter's window ends; a counter past it is dropped. */
  expiresAt: number;
}

export interface SharedCounters {
  /** Adds `amount` when the count stays within `limit`: the new count, or null with nothing added. */
  take(key: string, amount: number, limit: number, window: CounterWindow): Promise<number | null>;
  /** Takes back what a take added (when a second counter of the same call refused). */
  giveBack(key: string, amount: number): Promise<void>;
  /** Raises the count to at least `value` (the platform said the quota is used up). */
  raise(key: string, value: number, window: CounterWindow): Promise<void>;
  read(key: string): Promise<number>;
}

/** Counters of this process alone. */
export function memoryCounters(): SharedCounters {
  const counts = new Map<string, { used: number; expiresAt: number }>();
  const current = (key: string, window?: CounterWindow) => {
    const found = counts.get(key);
    if (found && (!window || found.expiresAt > window.now)) return found;
    const fresh = { used: 0, expiresAt: window?.expiresAt ?? 0 };
    if (window) counts.set(key, fresh);
    return fresh;
  };
  return {
    take(key, amount, limit, window) {
      const counter = current(key, window);
      if (counter.used + amount > limit) return Promise.resolve(null);
      counter.used += amount;
      return Promise.resolve(counter.used);
    },
    giveBack(key, amount) {
      const counter = counts.get(key);
      if (counter) counter.used = Math.max(0, counter.used - amount);
      return Promise.resolve();
    },
    raise(key, value, window) {
      const counter = current(key, window);
      counter.used = Math.max(counter.used, value);
      return Promise.resolve();
    },
    read(key) {
      return Promise.resolve(counts.get(key)?.used ?? 0);
    },
  };
}
