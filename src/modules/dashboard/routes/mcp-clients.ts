// Remote MCP clients (issue 20, point 3): the consent page of the OAuth flow, where the signed-in
// person approves one application for the session's organization (or denies it), and the list of
// the organization's connected applications with Revoke. /oauth/authorize checked the request
// and sent the person here; every step checks it again, since anyone can open these URLs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../../http/errors.ts';
import { AUTHORIZE_PARAMS, paramsOf, parseAuthorization, redirectWith, type AuthorizationRequest, type ParsedAuthorization } from '../../../mcp/oauth/authorization-request.ts';
import { listConnections, revokeGrant } from '../../../mcp/oauth/connections.ts';
import { issueCode } from '../../../mcp/oauth/grants.ts';
import { oauthUrls } from '../../../mcp/oauth/urls.ts';
import { refusal } from '../errors.ts';
import { fieldsOf } from '../form.ts';
import { allowFormTargets } from '../headers.ts';
import { sendPage, sessionOf, viewerOf } from '../guard.ts';
import { html, when, type Html } from '../html.ts';
import { BASE, csrfField, page, type Notice, type Viewer } from '../layout.ts';
import { reviewerOf } from '../sessions.ts';

const urlsOf = (request: FastifyRequest) => oauthUrls(request.server.deps.config.publicBaseUrl);

/** Where the application will be sent back to, as a person can judge it: the host, or a local port. */
function destination(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' ? `${url.host} (an application on this computer)` : url.host;
}

function consentPage(viewer: Viewer, request: AuthorizationRequest, params: ReturnType<typeof paramsOf>): Html {
  const name = request.client.name ?? 'An unnamed application';
  const hidden = AUTHORIZE_PARAMS.map((p) => {
    const value = params.get(p);
    return typeof value === 'string' ? html`<input type="hidden" name="${p}" value="${value}">` : '';
  });
  const body = html`<section class="card" aria-labelledby="h-consent">
<h2 id="h-consent">${name} wants to use this service for <strong>${viewer.organizationName || viewer.organizationId}</strong></h2>
<dl class="facts"><dt>Application</dt><dd>${name} <span class="mono muted">${request.client.id}</span></dd>
<dt>Returns to</dt><dd class="mono">${destination(request.redirectUri)}</dd>
<dt>Organization</dt><dd>${viewer.organizationName} <span class="mono muted">${viewer.organizationId}</span></dd>
<dt>Access</dt><dd>Every MCP tool of the API for this organization, as an API key has: its accounts, posts, media, inbox, messages, webhooks, analytics and ads, including publishing and deleting. Nothing of other organizations.</dd>
<dt>Until</dt><dd>You revoke it on the <a href="${BASE}/mcp-clients">MCP clients</a> page (its access token lasts an hour and renews itself).</dd></dl>
<p class="muted">Approve only if you started this connection from ${name === 'An unnamed application' ? 'your AI client' : name} yourself.</p>
<form method="post" action="${BASE}/authorize">${csrfField(viewer)}${hidden}
<div class="actions"><button class="primary" type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></div></form></section>`;
  return page(viewer, '/mcp-clients', 'Connect an application', body);
}

/** The answers that do not show the consent page: an error page, or back to the client. */
function notOk(reply: FastifyReply, parsed: Exclude<ParsedAuthorization, { kind: 'ok' }>): FastifyReply {
  if (parsed.kind === 'page') return refusal(reply, 400, 'This connection request is not valid', `${parsed.message} Nothing was shared with the application.`);
  return reply.redirect(parsed.location, 303);
}

async function connectionsPage(request: FastifyRequest, notice: Notice | null): Promise<Html> {
  const viewer = await viewerOf(request);
  const connections = await listConnections(request.server.deps.store.db, viewer.organizationId);
  const rows = connections.map(
    (c) => html`<tr><td>${c.clientName ?? html`<span class="muted">unnamed</span>`}<br><span class="mono muted">${c.clientId}</span></td>
<td class="wrap">${c.redirectUris.map((u) => destination(u)).join(', ')}</td><td>${when(c.connectedAt)}${c.approvedBy ? html`<br><span class="muted">by ${c.approvedBy}</span>` : ''}</td><td>${when(c.lastUsedAt)}</td>
<td><form method="post" action="${BASE}/mcp-clients/${c.grantId}/revoke" data-confirm="Revoke “${c.clientName ?? c.clientId}”? It loses access at once.">${csrfField(viewer)}<button class="danger" type="submit">Revoke</button></form></td></tr>`,
  );
  const body = html`<p class="lead">AI applications connected to this organization through MCP (they signed in here instead of using an API key). Revoking one ends its access at once.</p>
<div class="card">${connections.length ? html`<table><thead><tr><th scope="col">Application</th><th scope="col">Returns to</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="empty">No application is connected. Give an MCP client the address <span class="mono">${urlsOf(request).resource}</span>; it asks you here to approve it.</p>`}</div>`;
  return page(viewer, '/mcp-clients', 'MCP clients', body, notice);
}

export function mcpClientRoutes(app: FastifyInstance): void {
  app.get('/authorize', { config: { resumeAfterSignIn: true } }, async (request, reply) => {
    const params = paramsOf(request.query);
    const parsed = await parseAuthorization(request.server.deps.store.db, urlsOf(request), params, request.server.deps.clock.now());
    if (parsed.kind !== 'ok') return notOk(reply, parsed);
    // Approve (and Deny, for a client approved before) answer with a redirect to the client.
    allowFormTargets(reply, [new URL(parsed.request.redirectUri).origin]);
    return sendPage(reply, consentPage(await viewerOf(request), parsed.request, params));
  });

  app.post('/authorize', async (request, reply) => {
    const { deps } = request.server;
    const params = paramsOf(request.body);
    const urls = urlsOf(request);
    const parsed = await parseAuthorization(deps.store.db, urls, params, deps.clock.now());
    if (parsed.kind !== 'ok') return notOk(reply, parsed);
    const { request: authorization } = parsed;
    const decision = fieldsOf(request.body).get('decision');
    // A client nobody approved yet is not sent anywhere: its redirect URI is whoever registered it.
    if (decision === 'deny' && !authorization.client.approved) return refusal(reply, 200, 'Access denied', `Nothing was shared with ${authorization.client.name ?? 'the application'}. You can close this window.`);
    if (decision === 'deny') return reply.redirect(redirectWith(authorization.redirectUri, urls.issuer, { error: 'access_denied', error_description: 'the person denied access', state: authorization.state }), 303);
    if (decision !== 'approve') return refusal(reply, 400, 'That did not work', 'Choose Approve or Deny.');
    const session = sessionOf(request);
    const code = await issueCode(deps.store.db, deps.clock.now(), {
      clientId: authorization.client.id,
      organizationId: session.organizationId,
      approvedBy: reviewerOf(session),
      redirectUri: authorization.redirectUri,
      codeChallenge: authorization.codeChallenge,
      resource: authorization.resource,
    });
    return reply.redirect(redirectWith(authorization.redirectUri, urls.issuer, { code, state: authorization.state }), 303);
  });

  app.get('/mcp-clients', async (request, reply) => {
    const done = fieldsOf(request.query).get('done');
    return sendPage(reply, await connectionsPage(request, done === 'revoked' ? { kind: 'ok', text: 'Revoked: the application lost its access; its tokens are refused from now on.' } : null));
  });

  app.post<{ Params: { id: string } }>('/mcp-clients/:id/revoke', async (request, reply) => {
    const { deps } = request.server;
    if (!(await revokeGrant(deps.store.db, deps.clock.now(), sessionOf(request).organizationId, request.params.id))) throw errors.notFound('Connected application');
    return reply.redirect(`${BASE}/mcp-clients?done=revoked`, 303);
  });
}
