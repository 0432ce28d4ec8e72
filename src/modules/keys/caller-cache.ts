// Who is behind a key, remembered between requests so that an API request does not look its key
// up every time (on SQLite the lookup was the largest part of the authenticated route's cost).
// A revoked key must still be refused at once, on every node: revoking or rotating a key
// publishes a notice (db/notices.ts) after it commits, and every cache that hears it forgets
// everything. In this process that is synchronous; other processes hear it within milliseconds
// (PostgreSQL NOTIFY, or a watched file next to the SQLite database). While a cache cannot hear
// notices (LISTEN connection down, no watch in place), it remembers nothing.
// Entries also expire after a minute, and the cache holds a bounded number of keys.
import type { Store } from '../../db/database.ts';
import type { Subscription } from '../../db/notices.ts';
import type { Caller } from '../../http/caller.ts';

export type { Caller };

export const KEYS_CHANNEL = 'socialapi_keys';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** Call once a change to keys (or their organizations) has committed. */
export function keysChanged(store: Pick<Store, 'notices'>): Promise<void> {
  return store.notices.publish(KEYS_CHANNEL);
}

interface Entry {
  caller: Caller;
  expiresAt: number;
}

export class CallerCache {
  readonly #entries = new Map<string, Entry>();
  readonly #subscription: Subscription;
  /** Moves on every clear: a lookup that overlapped one must not be remembered. */
  #generation = 0;
  /** Whether a change would reach us. */
  #hearing = false;

  constructor(store: Pick<Store, 'notices'>) {
    this.#subscription = store.notices.subscribe(KEYS_CHANNEL, {
      onNotify: () => this.#clear(),
      onListening: () => {
        this.#clear();
        this.#hearing = true;
      },
      onLost: () => {
        this.#hearing = false;
        this.#clear();
      },
    });
  }

  get(keyHash: string, now = Date.now()): Caller | undefined {
    if (!this.#hearing) return undefined;
    const entry = this.#entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(keyHash);
      return undefined;
    }
    return entry.caller;
  }

  /** Where the cache stands now; pass it to set() after the lookup. */
  generation(): number {
    return this.#generation;
  }

  /** Remembers a caller read from the store, unless a notice arrived while it was being read. */
  set(keyHash: string, caller: Caller, generation: number, now = Date.now()): void {
    if (!this.#hearing || generation !== this.#generation) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(keyHash, { caller, expiresAt: now + TTL_MS });
  }

  async close(): Promise<void> {
    this.#hearing = false;
    this.#clear();
    await this.#subscription.close();
  }

  #clear(): void {
    this.#entries.clear();
    this.#generation++;
  }
}
