// Liveness and readiness, outside /api/v1: no key, no rate limit, not in the API document.
import { sql } from 'kysely';
import type { Api } from './types.ts';

export function registerProbes(app: Api): void {
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(app.deps.store.db);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ error: { message: 'store unreachable' } });
    }
  });
}
