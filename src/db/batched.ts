// Calls that arrive while a statement is on its way wait and go together in the next one, as a
// group commit does: under load many rows share one round trip, and a lone call waits for
// nothing. A failed statement fails every call it carried.
export interface Batched<T, R> {
  (item: T): Promise<R>;
  /** Resolves once no statement is on its way and no call waits (at once when idle already). */
  idle(): Promise<void>;
}

export function batched<T, R>(run: (items: T[]) => Promise<R[]>, max: number): Batched<T, R> {
  const waiting: Array<{ item: T; done: (result: R) => void; failed: (error: unknown) => void }> = [];
  let draining: Promise<void> | null = null;
  const drain = async () => {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, max);
      try {
        const results = await run(batch.map((call) => call.item));
        batch.forEach((call, i) => call.done(results[i] as R));
      } catch (error) {
        for (const call of batch) call.failed(error);
      }
    }
    // In the turn the loop ends: a call made after it starts the next drain.
    draining = null;
  };
  const call = (item: T) =>
    new Promise<R>((done, failed) => {
      waiting.push({ item, done, failed });
      draining ??= drain();
    });
  return Object.assign(call, { idle: () => draining ?? Promise.resolve() });
}

/**
 * batched() kept apart per key (a store's database handle, whose statements share nothing with
 * another store's), made when the key is first used.
 */
export function batchedPer<K extends object, T, R>(run: (key: K, items: T[]) => Promise<R[]>, max: number): (key: K, item: T) => Promise<R> {
  const batchers = new WeakMap<K, (item: T) => Promise<R>>();
  return (key, item) => {
    let call = batchers.get(key);
    if (!call) {
      call = batched((items: T[]) => run(key, items), max);
      batchers.set(key, call);
    }
    return call(item);
  };
}
