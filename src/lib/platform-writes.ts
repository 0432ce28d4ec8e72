// What an API request's platform calls did, as far as a retry with the same idempotency key
// needs to know (http/idempotency.ts). The platform HTTP client reports every call that may
// change something on a platform (any method but GET) to the watch of the request it is made
// for, found through AsyncLocalStorage: adapters and services stay as they are, and no call
// can be forgotten. The watch commits its marker before the call is sent (beforeWrite resolves
// once that is durable), and learns how the call ended (afterWrite), without the database.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface PlatformWriteWatch {
  /** Before a call that may change something on a platform; the call waits for it. */
  beforeWrite(): Promise<void>;
  /** The call's answer: its HTTP status, or null when no answer came (a timeout, a lost connection). */
  afterWrite(status: number | null): void;
}

const watches = new AsyncLocalStorage<PlatformWriteWatch>();

/** Runs `work` with its platform writes reported to `watch`. */
export function watchPlatformWrites<T>(watch: PlatformWriteWatch, work: () => T): T {
  return watches.run(watch, work);
}

/** The watch of the work this runs in, if any. */
export const currentWriteWatch = (): PlatformWriteWatch | undefined => watches.getStore();
