// API keys of the organization: create (with a name, a rate limit and the approval flag; the key
// is shown on the answer page once and never again), revoke, rotate (a new key with the same
// settings, the old one revoked). The keys module does the work, as it does for the CLI.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../../http/errors.ts';
import { createKey, listKeys, revokeKey, rotateKey, type CreatedKey } from '../../keys/service.ts';
import { checked, fieldsOf, optionalPositiveInteger, optionalText } from '../form.ts';
import { sendPage, sessionOf, viewerOf } from '../guard.ts';
import { badge, html, when, type Html } from '../html.ts';
import { BASE, csrfField, page, type Notice, type Viewer } from '../layout.ts';

const MAX_RATE_LIMIT = 100_000;

function shownOnce(created: CreatedKey, what: string): Notice {
  return {
    kind: 'ok',
    text: html`<p>${what} <span class="mono">${created.row.id}</span>. Copy the key now: it is shown only this once.</p>
<div class="secret"><code id="new-secret">${created.key}</code><button type="button" data-copy="new-secret" hidden>Copy</button></div>`,
  };
}

async function keysPage(request: FastifyRequest, notice: Notice | null): Promise<Html> {
  const viewer = await viewerOf(request);
  const keys = await listKeys(request.server.deps.store.db, viewer.organizationId);
  keys.sort((a, b) => (a.revoked_at === null) === (b.revoked_at === null) ? b.id.localeCompare(a.id) : a.revoked_at === null ? -1 : 1);
  const rows = keys.map(
    (k) => html`<tr><td>${k.name}<br><span class="mono muted">${k.id}</span></td><td class="mono">${k.prefix}…</td><td>${k.rate_limit === null ? html`<span class="muted">default</span>` : `${k.rate_limit}/min`}</td><td>${k.approval_required === 1 ? 'required' : html`<span class="muted">no</span>`}</td><td>${when(k.created_at)}</td>
<td>${k.revoked_at === null ? badge('active') : html`${badge('revoked')}<br>${when(k.revoked_at)}`}</td>
<td>${k.revoked_at === null ? actions(viewer, k.id, k.name) : ''}</td></tr>`,
  );
  const body = html`<section class="card" aria-labelledby="h-new"><h2 id="h-new">New key</h2>
<form method="post" action="${BASE}/keys">${csrfField(viewer)}
<div class="filters"><div class="field"><label for="key-name">Name</label><input type="text" id="key-name" name="name" maxlength="100" placeholder="default"></div>
<div class="field"><label for="key-rate">Requests per minute</label><input type="number" id="key-rate" name="rateLimit" min="1" max="${MAX_RATE_LIMIT}" placeholder="service default"></div>
<div class="field"><label class="check" for="key-approval"><input type="checkbox" id="key-approval" name="approval" value="1"> Hold its posts for approval</label></div>
<button class="primary" type="submit">Create key</button></div></form></section>
<div class="card">${keys.length ? html`<table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Rate limit</th><th scope="col">Approval</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="empty">No keys yet.</p>`}</div>`;
  return page(viewer, '/keys', 'API keys', body, notice);
}

function actions(viewer: Viewer, id: string, name: string): Html {
  return html`<div class="actions tight"><form method="post" action="${BASE}/keys/${id}/rotate" data-confirm="Rotate “${name}”? The current key stops working at once.">${csrfField(viewer)}<button type="submit">Rotate</button></form>
<form method="post" action="${BASE}/keys/${id}/revoke" data-confirm="Revoke “${name}”? Requests with it are refused from now on.">${csrfField(viewer)}<button class="danger" type="submit">Revoke</button></form></div>`;
}

async function ownActiveKey(request: FastifyRequest, id: string): Promise<void> {
  const found = await request.server.deps.store.db.selectFrom('api_keys').select('id').where('id', '=', id).where('organization_id', '=', sessionOf(request).organizationId).where('revoked_at', 'is', null).executeTakeFirst();
  if (!found) throw errors.notFound('Active key');
}

export function keyRoutes(app: FastifyInstance): void {
  app.get('/keys', async (request, reply) => {
    const done = fieldsOf(request.query).get('done');
    return sendPage(reply, await keysPage(request, done === 'revoked' ? { kind: 'ok', text: 'Key revoked: requests with it are refused from now on.' } : null));
  });

  app.post('/keys', async (request, reply) => {
    const form = fieldsOf(request.body);
    const name = optionalText(form, 'name', 100);
    const rateLimit = optionalPositiveInteger(form, 'rateLimit', MAX_RATE_LIMIT);
    const { db } = request.server.deps.store;
    const created = await createKey(db, request.server.deps.clock, sessionOf(request).organizationId, { ...(name ? { name } : {}), rateLimit, approvalRequired: checked(form, 'approval') });
    // Answered here, not redirected: the key must not travel in a URL or be shown twice.
    return sendPage(reply, await keysPage(request, shownOnce(created, 'Created key')), 201);
  });

  app.post<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply) => {
    const { deps } = request.server;
    await ownActiveKey(request, request.params.id);
    if (!(await revokeKey(deps.store, deps.clock, request.params.id))) throw errors.notFound('Active key');
    return reply.redirect(`${BASE}/keys?done=revoked`, 303);
  });

  app.post<{ Params: { id: string } }>('/keys/:id/rotate', async (request, reply) => {
    const { deps } = request.server;
    await ownActiveKey(request, request.params.id);
    const created = await rotateKey(deps.store, deps.clock, request.params.id);
    if (!created) throw errors.notFound('Active key');
    return sendPage(reply, await keysPage(request, shownOnce(created, `Rotated: ${request.params.id} is revoked, replaced by`)));
  });
}
