// Who is behind a key, remembered between requests so that an API request does not look its key
// up every time (on SQLite the lookup was the largest part of the authenticated route's cost).
// A revoked key must still be refused at once, on every node, so an entry is only trusted while
// nothing could have changed the keys since it was read:
// - in this process, revoking or rotating a key clears every cache (keysChanged);
// - on SQLite, another process's commit (the CLI revoking a key) moves the file's data_version,
//   which is checked on every lookup (about 2 µs) and clears the cache;
// - on PostgreSQL, revoking sends a NOTIFY that clears the cache; while the LISTEN connection is
//   down, nothing is cached at all.
// Entries also expire after a minute, and the cache holds a bounded number of keys.
import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import { listenChannel, type Subscription } from '../../db/listen.ts';
import type { Database } from '../../db/schema.ts';

export interface Caller {
  keyId: string;
  organizationId: string;
  rateLimit: number | null;
  /** Approval applies to posts made with this key (the key's or its organization's setting). */
  approvalRequired: boolean;
}

export const KEYS_CHANNEL = 'socialapi_keys';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

const local = new EventEmitter();
local.setMaxListeners(0);

/** Call inside the transaction that changed a key: every node forgets what it remembered. */
export async function keysChanged(db: Kysely<Database>, store: Pick<Store, 'caps'>): Promise<void> {
  local.emit('change');
  if (store.caps.listenNotify) await sql`select pg_notify(${KEYS_CHANNEL}, '')`.execute(db);
}

interface Entry {
  caller: Caller;
  expiresAt: number;
}

export class CallerCache {
  readonly #entries = new Map<string, Entry>();
  readonly #store: Pick<Store, 'dataVersion' | 'listenClient'>;
  readonly #clear = (): void => {
    this.#entries.clear();
    this.#generation++;
  };
  readonly #channel: Subscription | null;
  /** The data_version the entries were read under (SQLite). */
  #dataVersion: number | null = null;
  /** Moves on every clear: a lookup that overlapped one must not be remembered. */
  #generation = 0;
  /** Whether a change would reach us (PostgreSQL: LISTEN is in place). */
  #trusted: boolean;

  constructor(store: Pick<Store, 'dataVersion' | 'listenClient'>) {
    this.#store = store;
    local.on('change', this.#clear);
    this.#trusted = store.dataVersion !== null;
    this.#channel = store.listenClient
      ? listenChannel(store, KEYS_CHANNEL, {
          onNotify: this.#clear,
          onListening: () => {
            this.#clear();
            this.#trusted = true;
          },
          onLost: () => {
            this.#trusted = false;
            this.#clear();
          },
        })
      : null;
  }

  get(keyHash: string, now = Date.now()): Caller | undefined {
    if (!this.#trusted || this.#stale()) return undefined;
    const entry = this.#entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(keyHash);
      return undefined;
    }
    return entry.caller;
  }

  /**
   * Remembers a caller read from the store. `generation` is what `generation()` said before
   * the read: a change that landed while the lookup ran must not be papered over.
   */
  set(keyHash: string, caller: Caller, generation: number, now = Date.now()): void {
    this.#stale();
    if (!this.#trusted || generation !== this.#generation) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(keyHash, { caller, expiresAt: now + TTL_MS });
  }

  /** Where the cache stands now; pass it to set() after a lookup. */
  generation(): number {
    this.#stale();
    return this.#generation;
  }

  async close(): Promise<void> {
    local.off('change', this.#clear);
    this.#clear();
    await this.#channel?.close();
  }

  /** SQLite: clears the entries when another process committed since they were read. */
  #stale(): boolean {
    if (!this.#store.dataVersion) return false;
    const version = this.#store.dataVersion();
    if (version === this.#dataVersion) return false;
    this.#dataVersion = version;
    this.#clear();
    return true;
  }
}
