// Everything a process needs before it serves or works: the store (reachable, migrated), the
// token sealer, the clock and, when configured, Redis. Failures here are StartupErrors: one line.
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { describeTarget, migrateToLatest, openStore, pingStore, StoreUnavailableError, type Store } from './db/database.ts';
import type { AppDeps } from './deps.ts';
import { storeCounters } from './db/shared-counters.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createSealer, resolveEncryptionKey } from './lib/crypto.ts';
import { messageOf } from './lib/errors.ts';
import { servesSandbox } from './platforms/base-url.ts';
import { createPlatforms } from './platforms/registry.ts';
import { Metrics, metricsEnabled } from './metrics/metrics.ts';
import { platformObserver } from './metrics/platform-calls.ts';
import { SANDBOX_STATE_FILE, SandboxState } from './sandbox/index.ts';

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
  // The in-process sandbox keeps its state in DATA_DIR once it is served (the plugin opens the
  // file), so a restart keeps the platforms' tokens, people and posts; close() saves it last.
  const sandbox = servesSandbox(config) ? new SandboxState({ stateFile: join(config.dataDir, SANDBOX_STATE_FILE) }) : null;
  // One set of series per runtime (not prom-client's global one), and none at all when off.
  const metrics = metricsEnabled(config.metrics) ? new Metrics({ store, clock }) : undefined;
  return {
    deps: { config, store, clock, sealer: createSealer(key), sandbox, platforms: createPlatforms(config, metrics && platformObserver(metrics), storeCounters(store.db)), ...(metrics ? { metrics } : {}) },
    redis,
    async close() {
      await sandbox?.close();
      redis?.disconnect();
      await store.close();
    },
  };
}
