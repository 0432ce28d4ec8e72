// Who is looking: the session behind the cookie, checked on every dashboard request but the
// public ones (sign-in page, link, assets). Without one a page leads to sign-in; a form that
// changes state must also carry the session's CSRF token, or it is refused (403) before any
// handler runs. A page that is a step of someone else's flow (an MCP client's authorization)
// says so in its route config, and the guard remembers it so that sign-in comes back to it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tenantScope, type Tenant } from '../../db/tenant.ts';
import { BASE, type Viewer } from './layout.ts';
import { csrfMatches, csrfToken, findSession, RESUME_COOKIE, RESUME_TTL_MS, SESSION_COOKIE, type Session } from './sessions.ts';
import { fieldsOf } from './form.ts';
import { refusal } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: Session | null;
  }
  interface FastifyContextConfig {
    /** Without a session, sign-in comes back to this page (with its query) instead of approvals. */
    resumeAfterSignIn?: boolean;
  }
}

export function registerGuard(app: FastifyInstance): void {
  app.decorateRequest('dashboardSession', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.public) return;
    const { deps } = request.server;
    const session = await findSession(deps.store.db, deps.clock.now(), request.cookies[SESSION_COOKIE]);
    if (session) {
      request.dashboardSession = session;
      return;
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (request.routeOptions.config.resumeAfterSignIn) {
        reply.setCookie(RESUME_COOKIE, request.url, { path: BASE, httpOnly: true, sameSite: 'lax', secure: deps.config.publicBaseUrl.startsWith('https:'), maxAge: RESUME_TTL_MS / 1000 });
      }
      return reply.redirect(`${BASE}/signin`, 303);
    }
    return refusal(reply, 401, 'Signed out', 'Your session has ended or was revoked. Get a new sign-in link to continue; nothing was changed.');
  });
  // After the body is parsed: the token travels as a form field.
  app.addHook('preHandler', async (request, reply) => {
    if (request.routeOptions.config.public || request.method === 'GET' || request.method === 'HEAD') return;
    const session = request.dashboardSession;
    if (!session || !csrfMatches(session, fieldsOf(request.body).get('_csrf'))) {
      return refusal(reply, 403, 'Request refused', 'The form did not carry this session’s security token, so nothing was changed. Go back, reload the page and try again.');
    }
  });
}

export function sessionOf(request: FastifyRequest): Session {
  const session = request.dashboardSession;
  if (!session) throw new Error('dashboard route reached without a session');
  return session;
}

export function tenantFor(request: FastifyRequest): Tenant {
  return tenantScope(request.server.deps.store.db, sessionOf(request).organizationId);
}

/** What the page shell shows: the organization, the person, the token and the waiting count. */
export async function viewerOf(request: FastifyRequest): Promise<Viewer> {
  const session = sessionOf(request);
  const tenant = tenantFor(request);
  const [org, waiting] = await Promise.all([
    request.server.deps.store.db.selectFrom('organizations').select('name').where('id', '=', session.organizationId).executeTakeFirst(),
    tenant.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending_approval').executeTakeFirst(),
  ]);
  return { organizationId: session.organizationId, organizationName: org?.name ?? '', email: session.email, csrf: csrfToken(session), waiting: Number(waiting?.n ?? 0) };
}

export function sendPage(reply: FastifyReply, markup: { text: string }, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(markup.text);
}
