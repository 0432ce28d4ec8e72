// The keys module: no routes or jobs (keys are managed by the operator CLI); it gives the app
// the authenticator its auth hook asks on every API request.
import type { Store } from '../../db/database.ts';
import type { Authenticator } from '../../http/caller.ts';
import { CallerCache } from './caller-cache.ts';
import { authenticate } from './service.ts';

/** Looks keys up in the store, through a cache that every key change clears (caller-cache.ts). */
export function keyAuthenticator(store: Pick<Store, 'db' | 'notices'>): Authenticator {
  const cache = new CallerCache(store);
  return {
    authenticate: (key) => authenticate(store.db, key, cache),
    close: () => cache.close(),
  };
}
