// The authorization server's endpoints, at the service's root beside /mcp: discovery documents,
// registration, the authorize step (which hands the person to the dashboard's consent page),
// the token endpoint and revocation. They are protocol endpoints, not API operations: hidden
// from the API document (so from the tool list too), answering in OAuth's error shape
// (RFC 6749 section 5.2), never with a cached token.
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidClientError, InvalidGrantError, InvalidRequestError, InvalidTargetError, OAuthError, ServerError, TooManyRequestsError, UnsupportedGrantTypeError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { memoryCounter } from '../../http/rate-limit.ts';
import { html } from '../../modules/dashboard/html.ts';
import { bare, BASE } from '../../modules/dashboard/layout.ts';
import { paramsOf, parseAuthorization } from './authorization-request.ts';
import { findClient, parseRegistration, registerClient, registrationSource } from './clients.ts';
import { exchangeCode, refreshGrant, revokeToken, type GrantResult } from './grants.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.ts';
import { OAUTH_PATHS, isOurResource, type OAuthUrls } from './urls.ts';

/** Where the authorize step sends the person: the dashboard's consent page, with the same query. */
export const CONSENT_PATH = `${BASE}/authorize`;

const STATUS: Record<string, number> = { invalid_client: 401, too_many_requests: 429, server_error: 500, temporarily_unavailable: 503 };

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  const status = STATUS[error.errorCode] ?? 400;
  if (status === 401) reply.header('www-authenticate', 'Basic realm="socialapi"');
  return reply.code(status).header('cache-control', 'no-store').send(error.toResponseObject());
}

function oauthErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof OAuthError) return sendOAuthError(reply, error);
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) return sendOAuthError(reply, new InvalidRequestError(status === 415 ? 'the body must be application/x-www-form-urlencoded (or JSON for registration)' : status === 413 ? 'the body is too large' : 'the request could not be read'));
  request.log.error({ err: error }, 'oauth request failed');
  return sendOAuthError(reply, new ServerError(`something went wrong; request id ${request.id}`));
}

function errorPage(reply: FastifyReply, message: string): FastifyReply {
  const body = html`<p class="notice bad" role="alert">${message}</p><p class="muted">Nothing was shared with the application. Go back to it and start the connection again.</p>`;
  return reply
    .code(400)
    .headers({
      'content-security-policy': "default-src 'none'; style-src 'self'; script-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    .type('text/html; charset=utf-8')
    .send(bare('This connection request is not valid', body).text);
}

/** One value of a form field: a repeated field is an error, a missing one null. */
function field(params: ReturnType<typeof paramsOf>, name: string): string | null {
  const value = params.get(name);
  if (Array.isArray(value)) throw new InvalidRequestError(`${name}: given more than once`);
  return value === undefined || value === '' ? null : value;
}

function required(params: ReturnType<typeof paramsOf>, name: string): string {
  const value = field(params, name);
  if (value === null) throw new InvalidRequestError(`${name}: required`);
  return value;
}

/** A public client names itself by client_id in the form, or as the user of HTTP Basic. */
function clientIdOf(request: FastifyRequest, params: ReturnType<typeof paramsOf>): string | null {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (basic) {
    const user = Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '';
    try {
      return decodeURIComponent(user) || null;
    } catch {
      throw new InvalidClientError('Authorization: the Basic credentials cannot be read');
    }
  }
  return field(params, 'client_id');
}

function tokenAnswer(reply: FastifyReply, result: GrantResult): FastifyReply {
  if (!result.ok) throw new InvalidGrantError(result.description);
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(result.tokens);
}

// Browser-based MCP clients read discovery and call these endpoints from another origin; none of
// them relies on cookies, so any origin may (the consent itself happens in the dashboard).
function allowCrossOrigin(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.header('access-control-allow-origin', '*');
  done();
}

const PREFLIGHT = { 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version', 'access-control-max-age': '600' };

export function oauthRoutes(urls: OAuthUrls) {
  return async function oauthPlugin(app: FastifyInstance): Promise<void> {
    await app.register(formbody, { bodyLimit: 16 * 1024 });
    app.setErrorHandler(oauthErrorHandler);
    const registrations = memoryCounter();
    const cors = { schema: { hide: true }, onRequest: allowCrossOrigin };
    const crossOriginPaths = [OAUTH_PATHS.protectedResource, `${OAUTH_PATHS.protectedResource}/mcp`, OAUTH_PATHS.authorizationServer, OAUTH_PATHS.register, OAUTH_PATHS.token, OAUTH_PATHS.revoke];
    for (const url of crossOriginPaths) app.options(url, cors, async (_request, reply) => reply.code(204).headers(PREFLIGHT).send());

    const resourceDocument = (_request: FastifyRequest, reply: FastifyReply) => reply.send(protectedResourceMetadata(urls));
    app.get(OAUTH_PATHS.protectedResource, cors, resourceDocument);
    // RFC 9728 section 3.1: the document of the resource at /mcp may also be asked for by path.
    app.get(`${OAUTH_PATHS.protectedResource}/mcp`, cors, resourceDocument);
    app.get(OAUTH_PATHS.authorizationServer, cors, (_request, reply) => reply.send(authorizationServerMetadata(urls)));

    // Client metadata is small; whatever it holds is stored, so the body is capped.
    app.post(OAUTH_PATHS.register, { ...cors, bodyLimit: 16 * 1024 }, async (request, reply) => {
      const { deps } = request.server;
      const now = deps.clock.now();
      const perMinute = deps.config.mcpRegistrationsPerMinute;
      const usage = await registrations.hit(`register:${registrationSource(request.ip)}`, now);
      if (usage.count > perMinute) throw new TooManyRequestsError(`at most ${perMinute} registrations a minute from one address`);
      const metadata = parseRegistration(request.body);
      const client = await registerClient(deps.store.db, now, metadata, registrationSource(request.ip));
      return reply.code(201).header('cache-control', 'no-store').send(client);
    });

    app.get(OAUTH_PATHS.authorize, { schema: { hide: true } }, async (request, reply) => {
      const parsed = await parseAuthorization(request.server.deps.store.db, urls, paramsOf(request.query), request.server.deps.clock.now());
      if (parsed.kind === 'page') return errorPage(reply, parsed.message);
      if (parsed.kind === 'redirect') return reply.redirect(parsed.location, 302);
      // The consent lives in the dashboard, whose session cookie is scoped to /dashboard.
      const query = request.url.indexOf('?');
      return reply.redirect(`${CONSENT_PATH}${query < 0 ? '' : request.url.slice(query)}`, 302);
    });

    app.post(OAUTH_PATHS.token, cors, async (request, reply) => {
      const { deps } = request.server;
      const params = paramsOf(request.body);
      const grantType = required(params, 'grant_type');
      const clientId = clientIdOf(request, params);
      if (clientId === null) throw new InvalidClientError('client_id: required (public clients name themselves)');
      if (!(await findClient(deps.store.db, clientId, deps.clock.now()))) throw new InvalidClientError('client_id: unknown client');
      const resource = field(params, 'resource');
      if (resource !== null && !isOurResource(urls, resource)) throw new InvalidTargetError(`resource: this server issues tokens for ${urls.resource} only`);
      const now = deps.clock.now();
      if (grantType === 'authorization_code') {
        const exchange = { code: required(params, 'code'), redirectUri: required(params, 'redirect_uri'), codeVerifier: required(params, 'code_verifier'), clientId };
        return tokenAnswer(reply, await exchangeCode(deps.store.db, now, exchange));
      }
      if (grantType === 'refresh_token') return tokenAnswer(reply, await refreshGrant(deps.store.db, now, required(params, 'refresh_token'), clientId));
      throw new UnsupportedGrantTypeError(`grant_type: ${grantType} is not supported (authorization_code, refresh_token)`);
    });

    app.post(OAUTH_PATHS.revoke, cors, async (request, reply) => {
      const { deps } = request.server;
      const params = paramsOf(request.body);
      const token = required(params, 'token');
      await revokeToken(deps.store.db, deps.clock.now(), token, clientIdOf(request, params));
      return reply.code(200).header('cache-control', 'no-store').send({});
    });
  };
}
