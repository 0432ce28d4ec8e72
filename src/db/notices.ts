// Notices: "something you may remember changed", told to every process working on the store, so
// that what a process keeps in memory is dropped at once instead of being re-read on every use.
// - In this process, subscribers hear a notice synchronously when it is published.
// - PostgreSQL: NOTIFY on a channel, heard through a LISTEN connection (db/listen.ts).
// - SQLite: a small file next to the database per channel, rewritten on each notice and watched
//   with fs.watch (inotify on Linux); processes sharing a SQLite file share its folder.
// Publish after the change has committed, so that whoever hears the notice and reads again
// finds the new state.
import { EventEmitter } from 'node:events';
import { closeSync, openSync, watch, type FSWatcher } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { listenChannel, type ChannelListener, type Subscription } from './listen.ts';
import type pg from 'pg';
import type { Database } from './schema.ts';

export type { ChannelListener, Subscription };

export interface Notices {
  publish(channel: string): Promise<void>;
  /** Until closed; `onListening` says from when notices from other processes are heard. */
  subscribe(channel: string, listener: ChannelListener): Subscription;
}

const RETRY_MS = 1000;
const local = new EventEmitter();
local.setMaxListeners(0);

/** Tells this process's subscribers only (what other processes learn some other way). */
export function announceLocally(channel: string): void {
  local.emit(channel);
}

function withLocal(channel: string, listener: ChannelListener, remote: Subscription): Subscription {
  const onNotify = () => listener.onNotify();
  local.on(channel, onNotify);
  return {
    async close() {
      local.off(channel, onNotify);
      await remote.close();
    },
  };
}

export function postgresNotices(db: Kysely<Database>, listenClient: () => Promise<pg.Client>): Notices {
  return {
    async publish(channel) {
      announceLocally(channel);
      await sql`select pg_notify(${channel}, '')`.execute(db);
    },
    subscribe: (channel, listener) => withLocal(channel, listener, listenChannel({ listenClient }, channel, listener)),
  };
}

/** `file` is the database file; null for an in-memory database, which no other process sees. */
export function sqliteNotices(file: string | null): Notices {
  const noticeFile = (channel: string) => `${file ?? ''}-notice-${channel}`;
  return {
    async publish(channel) {
      announceLocally(channel);
      // Rewritten in place (same inode), so that watchers keep watching it.
      if (file) await writeFile(noticeFile(channel), `${Date.now()}\n`);
    },
    subscribe(channel, listener) {
      if (!file) return withLocal(channel, listener, { close: () => Promise.resolve() });
      let watcher: FSWatcher | null = null;
      let retry: NodeJS.Timeout | undefined;
      let closed = false;
      const start = (): void => {
        if (closed) return;
        try {
          closeSync(openSync(noticeFile(channel), 'a'));
          const next = watch(noticeFile(channel), { persistent: false }, () => listener.onNotify());
          next.on('error', (error) => {
            next.close();
            if (watcher !== next) return;
            watcher = null;
            lost(error);
          });
          watcher = next;
        } catch (error) {
          lost(error);
          return;
        }
        // The watch is in place once watch() has returned; anything before it was missed.
        listener.onListening?.();
      };
      const lost = (error: unknown): void => {
        listener.onLost(error);
        if (!closed) retry = setTimeout(start, RETRY_MS);
      };
      start();
      return withLocal(channel, listener, {
        close() {
          closed = true;
          clearTimeout(retry);
          watcher?.close();
          watcher = null;
          return Promise.resolve();
        },
      });
    },
  };
}
