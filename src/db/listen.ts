// LISTEN on a PostgreSQL channel through a dedicated connection that is replaced when it drops.
// Listeners learn when they start hearing (and so may have missed a NOTIFY before) and when they
// stop, so that whatever they keep in memory on the strength of the channel can be dropped.
import type pg from 'pg';
import type { Store } from './database.ts';

export interface ChannelListener {
  /** A NOTIFY on the channel arrived, with its payload (none from this process's own notices). */
  onNotify(payload?: string): void;
  /** LISTEN is in place (again): anything committed while nobody listened was missed. */
  onListening?(): void;
  /** The connection was lost; a new one is on its way. */
  onLost(error: unknown): void;
}

export interface Subscription {
  close(): Promise<void>;
}

const RECONNECT_MS = 1000;

/** Keeps a LISTEN connection alive until closed; does nothing on a store without LISTEN/NOTIFY. */
export function listenChannel(store: Pick<Store, 'listenClient'>, channel: string, listener: ChannelListener): Subscription {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = (error: unknown): void => {
    listener.onLost(error);
    retry = setTimeout(() => void connect(), RECONNECT_MS);
  };
  // A connection that failed after it was kept: dropped once (its 'error' event and a failed
  // LISTEN may both report it), and replaced.
  const lost = (failed: pg.Client, error: unknown): void => {
    if (closed || client !== failed) return;
    client = null;
    failed.end().catch(() => {});
    reconnectLater(error);
  };

  const connect = async (): Promise<void> => {
    if (!store.listenClient || closed) return;
    let next: pg.Client;
    try {
      next = await store.listenClient();
    } catch (error) {
      if (!closed) reconnectLater(error);
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    // Kept from here on, so that a close() while LISTEN is on its way still ends the
    // connection: a client left open would keep the process alive for ever.
    client = next;
    next.on('notification', (message) => listener.onNotify(message.payload));
    next.on('error', (error) => lost(next, error));
    try {
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      lost(next, error);
      return;
    }
    if (!closed) listener.onListening?.();
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      if (open) await open.end().catch(() => {});
    },
  };
}
