// The store's connections, read when scraped. PostgreSQL: the pg pool's own counters (a request
// waiting for a connection means the pool (DATABASE_POOL_MAX) is too small or queries are slow). SQLite has
// one connection and no pool: only the engine is reported.
import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../db/database.ts';

export function registerStoreGauges(registry: Registry, store: Store): void {
  new Gauge({ name: 'socialapi_store_info', help: 'The store engine in use (always 1).', labelNames: ['engine'] as const, registers: [registry] }).set({ engine: store.kind }, 1);
  const pool = store.pool;
  if (!pool) return;
  new Gauge({
    name: 'socialapi_store_pool_connections',
    help: 'Connections of the PostgreSQL pool, by state (idle, in_use).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'socialapi_store_pool_waiting',
    help: 'Queries waiting for a PostgreSQL pool connection.',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}
