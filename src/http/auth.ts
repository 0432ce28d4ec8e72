// Bearer authentication for the API scope. Who a key belongs to is the authenticator's business
// (the keys module's: the key's SHA-256, looked up in the store unless a cache cleared on every
// key change already knows it); this hook only reads the header and refuses what it is told to.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { tenantScope, type Tenant } from '../db/tenant.ts';
import type { Authenticator, Caller, InternalBearer } from './caller.ts';
import { errors } from './errors.ts';
import type { Api } from './types.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function fromInside(request: FastifyRequest, internal: InternalBearer): boolean {
  const sent = request.headers[internal.header];
  if (typeof sent !== 'string') return false;
  const given = Buffer.from(sent);
  const expected = Buffer.from(internal.secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function registerAuth(api: Api, callers: Authenticator, internal: InternalBearer | null = null): void {
  api.decorateRequest('caller', null);
  api.addHook('onClose', () => callers.close());
  api.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match?.[1]) throw errors.unauthorized('Missing API key: send Authorization: Bearer sk_…');
    const token = match[1];
    let caller: Caller | null;
    if (internal?.accepts(token)) {
      if (!fromInside(request, internal)) throw errors.unauthorized('This token is an MCP access token: it is accepted only at /mcp. Use an API key here.');
      caller = await internal.authenticator.authenticate(token);
    } else {
      caller = await callers.authenticate(token);
    }
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
