// Sign-in by link, sign-out, and the page that says how to get a link.
import type { FastifyInstance } from 'fastify';
import { html } from '../html.ts';
import { bare, BASE } from '../layout.ts';
import { sendPage, sessionOf } from '../guard.ts';
import { redeemSignInLink, resumePath, RESUME_COOKIE, revokeSession, SESSION_COOKIE, SESSION_TTL_MS } from '../sessions.ts';

const HOW = html`<p>The dashboard signs you in with a single-use link, valid 15 minutes. An operator prints one on the machine that runs the service:</p>
<pre><code>socialapi dashboard link --org ORG_ID [--email you@example.com]</code></pre>
<p class="muted">Find the organization's id with <code>socialapi orgs list</code>. With <code>npm</code>: <code>npx socialapi dashboard link --org ORG_ID</code>. Open the printed link in this browser.</p>`;

const RESUMING = html`<p class="notice info" role="status">An application asked to connect to this service. Sign in with a link opened in this browser, and you will come back to approve or deny it.</p>`;

const REFUSED = { unknown: 'This sign-in link is not valid.', used: 'This sign-in link was already used; each link signs in once.', expired: 'This sign-in link has expired; links are valid 15 minutes.' } as const;

export function signInRoutes(app: FastifyInstance): void {
  app.get('/', async (_request, reply) => reply.redirect(`${BASE}/approvals`, 303));

  app.get('/signin', { config: { public: true } }, async (request, reply) =>
    sendPage(reply, bare('Sign in to the dashboard', html`${resumePath(request.cookies[RESUME_COOKIE]) ? RESUMING : ''}${HOW}`)),
  );

  app.get<{ Params: { token: string } }>('/login/:token', { config: { public: true } }, async (request, reply) => {
    const { deps } = request.server;
    const redeemed = await redeemSignInLink(deps.store.db, deps.clock.now(), request.params.token);
    if (!redeemed.ok) return sendPage(reply, bare('Sign-in link refused', html`<p class="notice bad" role="alert">${REFUSED[redeemed.reason]}</p>${HOW}`), redeemed.reason === 'unknown' ? 404 : 410);
    reply.setCookie(SESSION_COOKIE, redeemed.session.token, {
      path: BASE,
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.config.publicBaseUrl.startsWith('https:'),
      maxAge: SESSION_TTL_MS / 1000,
    });
    // Back to the step that sent the person here (an MCP client's authorization), if any.
    const resume = resumePath(request.cookies[RESUME_COOKIE]);
    if (resume) reply.clearCookie(RESUME_COOKIE, { path: BASE });
    return reply.redirect(resume ?? `${BASE}/approvals`, 303);
  });

  app.post('/logout', async (request, reply) => {
    const { deps } = request.server;
    await revokeSession(deps.store.db, deps.clock.now(), sessionOf(request).id);
    reply.clearCookie(SESSION_COOKIE, { path: BASE });
    return sendPage(reply, bare('Signed out', html`<p>You are signed out; the session cannot be used again.</p>${HOW}`));
  });
}
