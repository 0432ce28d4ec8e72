// Everything a process needs before it serves or works: the store (reachable, migrated), the
// token sealer, the clock and, when configured, Redis. Failures here are StartupErrors: one line.
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { describeTarget, migrateToLatest, openStore, pingStore, StoreUnavailableError, type Store } from './db/database.ts';
import type { AppDeps } from './http/types.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createSealer, resolveEncryptionKey } from './lib/crypto.ts';
import { messageOf } from './lib/errors.ts';
import { servesSandbox } from './platforms/base-url.ts';
import { SandboxState } from './sandbox/index.ts';

export class StartupError extends Error {}

export interface Runtime {
  deps: AppDeps;
  redis: Redis | null;
  close(): Promise<void>;
}

export async function openMigratedStore(config: Config): Promise<Store> {
  let store: Store;
  try {
    store = openStore(config.database);
  } catch (error) {
    throw new StartupError(`cannot open the database at ${describeTarget(config.database)}: ${messageOf(error)}`);
  }
  try {
    await pingStore(store, config.database);
    await migrateToLatest(store);
  } catch (error) {
    await store.close().catch(() => {});
    if (error instanceof StoreUnavailableError) throw new StartupError(error.message);
    throw new StartupError(`cannot prepare the database at ${describeTarget(config.database)}: ${messageOf(error)}`);
  }
  return store;
}

export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5000 });
  redis.on('error', () => {}); // reported where a command fails; the client reconnects by itself
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const where = new URL(url);
    throw new StartupError(`cannot reach Redis at redis://${where.hostname}:${where.port || '6379'} (${messageOf(error)})`);
  }
  return redis;
}

export async function openRuntime(config: Config, clock: Clock = systemClock): Promise<Runtime> {
  let key: Buffer;
  try {
    key = resolveEncryptionKey(config.encryptionKey, config.dataDir).key;
  } catch (error) {
    throw new StartupError(`ENCRYPTION_KEY: ${messageOf(error)}`);
  }
  const store = await openMigratedStore(config);
  let redis: Redis | null = null;
  if (config.redisUrl) {
    try {
      redis = await connectRedis(config.redisUrl);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return {
    deps: { config, store, clock, sealer: createSealer(key), sandbox: servesSandbox(config) ? new SandboxState() : null },
    redis,
    async close() {
      redis?.disconnect();
      await store.close();
    },
  };
}
