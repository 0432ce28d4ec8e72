// Bearer authentication for the API scope: one indexed lookup by the key's SHA-256.
import type { FastifyRequest } from 'fastify';
import { tenantScope, type Tenant } from '../db/tenant.ts';
import { authenticate, type Caller } from '../modules/keys/service.ts';
import { errors } from './errors.ts';
import type { Api } from './types.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function registerAuth(api: Api): void {
  api.decorateRequest('caller', null);
  api.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match?.[1]) throw errors.unauthorized('Missing API key: send Authorization: Bearer sk_…');
    const caller = await authenticate(api.deps.store.db, match[1]);
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
