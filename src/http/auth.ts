// Bearer authentication for the API scope: the key's SHA-256, looked up in the store unless a
// cache that is cleared on every key change already knows it (modules/keys/caller-cache.ts).
import type { FastifyRequest } from 'fastify';
import { tenantScope, type Tenant } from '../db/tenant.ts';
import { CallerCache } from '../modules/keys/caller-cache.ts';
import { authenticate, type Caller } from '../modules/keys/service.ts';
import { errors } from './errors.ts';
import type { Api } from './types.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function registerAuth(api: Api): void {
  api.decorateRequest('caller', null);
  const callers = new CallerCache(api.deps.store);
  api.addHook('onClose', () => callers.close());
  api.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match?.[1]) throw errors.unauthorized('Missing API key: send Authorization: Bearer sk_…');
    const caller = await authenticate(api.deps.store.db, match[1], callers);
    if (!caller) throw errors.unauthorized();
    request.caller = caller;
  });
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw errors.unauthorized();
  return request.caller;
}

/** The store as the caller's organization sees it. */
export function tenantOf(request: FastifyRequest): Tenant {
  return tenantScope(request.server.deps.store.db, callerOf(request).organizationId);
}
