// Starts the real service in this process on a free loopback port, on a fresh database, and
// talks HTTP to it. Each suite gets its own store, organization and keys.
import type { Redis } from 'ioredis';
import { buildApp } from '../../src/app.ts';
import { parseConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/http/logging.ts';
import type { Api } from '../../src/http/types.ts';
import { connectRedis, openRuntime, type Runtime } from '../../src/runtime.ts';
import { createKey, type KeyOptions } from '../../src/modules/keys/service.ts';
import { createOrganization } from '../../src/modules/orgs/service.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createTestDatabase, type Dialect, type TestDatabase } from './databases.ts';
import { buildJobRegistry } from '../../src/composition.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { jobOutcomeObservers } from '../../src/metrics/job-metrics.ts';

export interface TestApp {
  url: string;
  app: Api;
  runtime: Runtime;
  config: Config;
  database: TestDatabase;
  /** A new organization with one key. */
  tenant(options?: KeyOptions & { approval?: boolean }): Promise<{ organizationId: string; key: string; keyId: string }>;
  /** The in-process worker, when started with `worker: true`. */
  worker: Worker | null;
  /** fetch against the service with a key. */
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  redis?: boolean;
  /** A Redis client to use as it is (a disconnected one, to play an outage). */
  redisClient?: Redis;
  /** Run a worker in this process, as `serve` does. */
  worker?: boolean;
}

export async function startApp(dialect: Dialect, options: StartOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const config = parseConfig({ DATABASE_URL: database.url, DATA_DIR: database.dataDir, PORT: '0', LOG_LEVEL: 'silent', ...options.env });
  const runtime = await openRuntime(config, options.clock);
  const redis = options.redisClient ?? (options.redis && config.redisUrl ? await connectRedis(config.redisUrl) : null);
  // In-process tests read the service's lines from process.stdout (ads-operations replaces its write).
  const app = await buildApp(runtime.deps, { redis, logger: createLogger(config.logLevel, process.stdout) });
  // A suite that needs the service's own address in its config (OAuth callbacks, the in-process
  // sandbox) passes a free PORT; the others listen on any port.
  await app.listen({ port: config.port, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const { db } = runtime.deps.store;
  const clock = runtime.deps.clock;
  const worker = options.worker
    ? new Worker({ store: runtime.deps.store, registry: buildJobRegistry(runtime.deps), clock, log: createLogger(config.logLevel, process.stdout), ...config.jobs, ...jobOutcomeObservers(runtime.deps.metrics) })
    : null;
  worker?.start();
  return {
    url,
    worker,
    app,
    runtime,
    config,
    database,
    async tenant(keyOptions = {}) {
      const org = await createOrganization(db, clock, { name: 'test', approvalRequired: keyOptions.approval ?? false });
      const { key, row } = await createKey(db, clock, org.id, keyOptions);
      return { organizationId: org.id, key, keyId: row.id };
    },
    request(path, init = {}) {
      const { key, headers, ...rest } = init;
      return fetch(`${url}${path}`, { ...rest, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(headers as Record<string, string> | undefined) } });
    },
    async close() {
      await worker?.stop();
      await app.close();
      redis?.disconnect();
      await runtime.close();
      await database.drop();
    },
  };
}
