// Connected accounts: status, the last health check (token, missing permissions), the approval
// switch (account-level approval: the account's posts are held and its direct messages refused),
// and per account its full health, publishing limit and a reconnect button that starts the same
// OAuth flow as GET /connect/{platform}, coming back here afterwards.
import type { FastifyInstance } from 'fastify';
import type { AccountRow } from '../../../db/schema.ts';
import { ApiError, errors } from '../../../http/errors.ts';
import { setAccountApproval } from '../../accounts/approval.ts';
import { parseMetadata } from '../../accounts/credentials.ts';
import { accountHealth, type Health } from '../../accounts/health.ts';
import { publishingLimitOf } from '../../accounts/publishing-limit.ts';
import { authorizationUrl } from '../../connect/authorize.ts';
import { callbackUrl } from '../../connect/service.ts';
import { allowFormTargets } from '../headers.ts';
import { checked, fieldsOf, FormError } from '../form.ts';
import { sendPage, tenantFor, viewerOf } from '../guard.ts';
import { badge, html, when, type Html } from '../html.ts';
import { BASE, csrfField, page, type Notice, type Viewer } from '../layout.ts';

export const ACCOUNTS_PAGE_SIZE = 50;

const nameOf = (row: Pick<AccountRow, 'username' | 'display_name' | 'id'>) => row.username ?? row.display_name ?? row.id;

/** Where the reconnect form's redirect may lead: the platform's sign-in page of each login, or a connect page of ours (a landing, a sign-in form). */
function signInOrigins(deps: FastifyInstance['deps'], platform: string): string[] {
  const connectors = deps.platforms.of(platform)?.connectors ?? [];
  const origins = connectors.map((c) => new URL(c.authorizeUrl({ state: 'x', redirectUri: callbackUrl(deps.config, platform) })).origin);
  return [...origins, new URL(deps.config.publicBaseUrl).origin];
}

function approvalSwitch(viewer: Viewer, row: AccountRow, back: string): Html {
  const id = `approval-${row.id}`;
  return html`<form method="post" action="${BASE}/accounts/${row.id}/approval">${csrfField(viewer)}<input type="hidden" name="back" value="${back}">
<label class="check" for="${id}"><input type="checkbox" id="${id}" name="required" value="1" data-autosubmit${row.approval_required === 1 ? html` checked` : ''}> Require approval</label>
<button type="submit" data-js-hide>Save</button></form>`;
}

function healthSummary(report: Health | null): Html {
  if (!report) return html`<span class="muted">not checked yet</span>`;
  const missing = report.missingPermissions.map((m) => m.permission);
  return html`${report.token.valid === false ? 'token refused' : report.token.valid ? 'token valid' : 'token not verified'}${missing.length ? html`; missing <span class="mono">${missing.join(', ')}</span>` : ''}<br><span class="muted">checked ${when(Date.parse(report.checkedAt))}</span>`;
}

async function ownAccount(request: Parameters<typeof tenantFor>[0], id: string): Promise<AccountRow> {
  const row = await tenantFor(request).selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw errors.notFound('Account');
  return row;
}

const messageOf = (error: unknown): string => (error instanceof ApiError ? error.message : 'the platform could not be asked');

export function accountRoutes(app: FastifyInstance): void {
  app.get('/accounts', async (request, reply) => {
    const query = fieldsOf(request.query);
    const after = query.get('after');
    if (after !== undefined && !/^acc_[0-9A-Z]{1,40}$/.test(after)) throw new FormError('after', 'not a position in this list');
    const tenant = tenantFor(request);
    const [viewer, rows] = await Promise.all([
      viewerOf(request),
      tenant.selectFrom('accounts').selectAll().$if(after !== undefined, (qb) => qb.where('id', '>', after ?? '')).orderBy('id').limit(ACCOUNTS_PAGE_SIZE + 1).execute(),
    ]);
    const shown = rows.slice(0, ACCOUNTS_PAGE_SIZE);
    const reports = shown.length
      ? await tenant.selectFrom('account_health').select(['account_id', 'report']).where('account_id', 'in', shown.map((r) => r.id)).execute()
      : [];
    const health = new Map(reports.map((r) => [r.account_id, JSON.parse(r.report) as Health]));
    const table = shown.length
      ? html`<div class="card"><table><caption class="muted caption">Accounts connected to this organization</caption>
<thead><tr><th scope="col">Account</th><th scope="col">Platform</th><th scope="col">Status</th><th scope="col">Health</th><th scope="col">Approval</th></tr></thead><tbody>
${shown.map((row) => html`<tr><td><a href="${BASE}/accounts/${row.id}">${nameOf(row)}</a><br><span class="mono muted">${row.id}</span></td><td>${row.platform}</td><td>${badge(row.status)}</td><td>${healthSummary(health.get(row.id) ?? null)}</td><td>${approvalSwitch(viewer, row, 'list')}</td></tr>`)}
</tbody></table></div>`
      : html`<div class="card empty"><p>No accounts are connected yet. Connect one through the API: <code>GET /api/v1/connect/{platform}</code>.</p></div>`;
    const next = rows.length > ACCOUNTS_PAGE_SIZE ? (shown.at(-1)?.id ?? null) : null;
    const more = html`<nav class="pager" aria-label="Pages">${after ? html`<a href="${BASE}/accounts">← First</a>` : html`<span></span>`}${next ? html`<a href="${BASE}/accounts?after=${next}">Next →</a>` : html`<span></span>`}</nav>`;
    return sendPage(reply, page(viewer, '/accounts', 'Accounts', html`${table}${more}`));
  });

  app.get<{ Params: { id: string } }>('/accounts/:id', async (request, reply) => {
    const { deps } = request.server;
    const row = await ownAccount(request, request.params.id);
    const viewer = await viewerOf(request);
    const [health, limit] = await Promise.all([
      accountHealth(deps, row, false).catch((error: unknown) => messageOf(error)),
      publishingLimitOf(deps, row)?.catch((error: unknown) => messageOf(error)) ?? Promise.resolve(null),
    ]);
    const query = fieldsOf(request.query);
    const notice: Notice | null = query.get('done') === 'checked' ? { kind: 'ok', text: 'Health checked again with the platform.' } : query.get('done') === 'approval' ? { kind: 'ok', text: 'Approval setting saved.' } : null;
    const healthBlock =
      typeof health === 'string'
        ? html`<p class="notice bad">Health could not be read: ${health}</p>`
        : html`<dl class="facts"><dt>Token</dt><dd>${health.token.valid === null ? 'not verified' : health.token.valid ? 'valid' : 'refused by the platform'}${health.token.expiresAt ? html`, expires ${when(Date.parse(health.token.expiresAt))}` : ''}</dd>
<dt>Permissions granted</dt><dd class="mono">${health.scopes.join(', ') || '—'}</dd>
<dt>Missing permissions</dt><dd>${health.missingPermissions.length ? html`<ul>${health.missingPermissions.map((m) => html`<li><span class="mono">${m.permission}</span> (for ${m.features.join(', ')})</li>`)}</ul>` : 'none'}</dd>
<dt>Checked</dt><dd>${when(Date.parse(health.checkedAt))}</dd></dl>
${health.recommendations.length ? html`<h3>What to do</h3><ul>${health.recommendations.map((r) => html`<li>${r}</li>`)}</ul>` : ''}`;
    const limitBlock =
      limit === null
        ? html`<p class="muted">${row.platform} has no rolling publishing limit.</p>`
        : typeof limit === 'string'
          ? html`<p class="notice bad">The limit could not be read: ${limit}</p>`
          : html`<p><strong>${limit.used}</strong> of <strong>${limit.allowed}</strong> posts used in the last ${limit.windowHours} hours.</p>`;
    const body = html`<p class="lead">${row.platform} · <span class="mono">${row.id}</span> · ${badge(row.status)}${row.external_id ? html` · external id <span class="mono">${row.external_id}</span>` : ''}</p>
<section class="card" aria-labelledby="h-health"><h2 id="h-health">Health</h2>${healthBlock}
<form method="post" action="${BASE}/accounts/${row.id}/health">${csrfField(viewer)}<button type="submit">Check again now</button></form></section>
<section class="card" aria-labelledby="h-limit"><h2 id="h-limit">Publishing limit</h2>${limitBlock}</section>
<section class="card" aria-labelledby="h-approval"><h2 id="h-approval">Approval</h2><p>When on, this account's posts wait in Approvals before publishing, and direct messages from it are refused.</p>${approvalSwitch(viewer, row, 'detail')}</section>
<section class="card" aria-labelledby="h-reconnect"><h2 id="h-reconnect">Reconnect</h2><p>Sign in to ${row.platform} again to renew the token or grant missing permissions; you come back here afterwards.</p>
<form method="post" action="${BASE}/accounts/${row.id}/reconnect">${csrfField(viewer)}<button class="primary" type="submit">Reconnect ${row.platform}</button></form></section>
<p><a href="${BASE}/accounts">← All accounts</a></p>`;
    allowFormTargets(reply, signInOrigins(deps, row.platform));
    return sendPage(reply, page(viewer, '/accounts', nameOf(row), body, notice));
  });

  app.post<{ Params: { id: string } }>('/accounts/:id/approval', async (request, reply) => {
    const form = fieldsOf(request.body);
    const back = form.get('back') === 'detail' ? `${BASE}/accounts/${encodeURIComponent(request.params.id)}?done=approval` : `${BASE}/accounts`;
    if (!(await setAccountApproval(tenantFor(request), request.params.id, checked(form, 'required'), request.server.deps.clock.now()))) throw errors.notFound('Account');
    return reply.redirect(back, 303);
  });

  app.post<{ Params: { id: string } }>('/accounts/:id/health', async (request, reply) => {
    const row = await ownAccount(request, request.params.id);
    await accountHealth(request.server.deps, row, true);
    return reply.redirect(`${BASE}/accounts/${encodeURIComponent(row.id)}?done=checked`, 303);
  });

  app.post<{ Params: { id: string } }>('/accounts/:id/reconnect', async (request, reply) => {
    const { deps } = request.server;
    const row = await ownAccount(request, request.params.id);
    const login = parseMetadata(row.metadata).login;
    const { authUrl } = await authorizationUrl(deps, {
      organizationId: row.organization_id,
      platform: row.platform,
      ...(typeof login === 'string' ? { login } : {}),
      externalId: row.external_id,
      redirectUrl: `${deps.config.publicBaseUrl}${BASE}/accounts/${row.id}`,
    });
    return reply.redirect(authUrl, 303);
  });
}
