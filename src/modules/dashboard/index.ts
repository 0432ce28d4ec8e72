// The dashboard at /dashboard (DESIGN "Dashboard", issue 19): server-rendered pages for reviewers
// and operators, signed in by a single-use link and a session cookie. It has its own parsers
// (urlencoded forms), cookies, error pages and security headers, and calls the same service
// functions as the API and the CLI; none of its routes is part of the API document.
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { STYLESHEET, SCRIPT } from './assets.ts';
import { dashboardErrorHandler, dashboardNotFound } from './errors.ts';
import { registerGuard } from './guard.ts';
import { securityHeaders } from './headers.ts';
import { BASE } from './layout.ts';
import { accountRoutes } from './routes/accounts.ts';
import { approvalRoutes } from './routes/approvals.ts';
import { keyRoutes } from './routes/keys.ts';
import { mcpClientRoutes } from './routes/mcp-clients.ts';
import { postRoutes } from './routes/posts.ts';
import { signInRoutes } from './routes/sign-in.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export { BASE as DASHBOARD_PREFIX };
export { createSignInLink, revokeOrganizationSessions, LINK_TTL_MS } from './sessions.ts';

export async function dashboardPlugin(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  app.setErrorHandler(dashboardErrorHandler);
  app.setNotFoundHandler(dashboardNotFound);
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(securityHeaders(reply));
  });
  registerGuard(app);

  app.get('/assets/dashboard.css', { config: { public: true } }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLESHEET));
  app.get('/assets/dashboard.js', { config: { public: true } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(SCRIPT));
  for (const routes of [signInRoutes, approvalRoutes, postRoutes, accountRoutes, keyRoutes, webhookRoutes, mcpClientRoutes]) routes(app);
}
