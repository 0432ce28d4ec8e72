// Webhook endpoints: create (the signing secret shown on the answer page once), edit in place
// (url, events, on or off; the secret stays), rotate the secret (the new one shown once, the old
// one signing too for 24 hours), delete, send a test event; per endpoint its deliveries, newest
// first a page at a time, with status, attempts, the next attempt's time, the last response and
// every attempt, and redeliver. The webhooks module's service does the work, as it does for the
// API.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../../http/errors.ts';
import type { WebhookEndpointRow } from '../../../db/schema.ts';
import { DEFAULT_EVENTS, SUBSCRIBABLE_EVENTS, type EventType } from '../../events/catalog.ts';
import { MAX_ATTEMPTS } from '../../webhooks/retry-schedule.ts';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, redeliver, rotateWebhookSecret, testWebhook, updateWebhook } from '../../webhooks/service.ts';
import { previousSecretUntil, type DeliveryView } from '../../webhooks/schemas.ts';
import { checkEndpointUrl } from '../../webhooks/url-check.ts';
import { all, checked, cursor, fieldsOf, FormError, type Fields } from '../form.ts';
import { sendPage, tenantFor, viewerOf } from '../guard.ts';
import { badge, html, when, type Html } from '../html.ts';
import { BASE, csrfField, page, pager, type Notice, type Viewer } from '../layout.ts';

export const DELIVERIES_PAGE_SIZE = 25;

const eventsOf = (row: WebhookEndpointRow) => JSON.parse(row.events) as string[];

/** The events as checkboxes, ticked where `ticked` says; `prefix` keeps their ids apart per form. */
function eventChoices(prefix: string, ticked: readonly string[]): Html[] {
  return SUBSCRIBABLE_EVENTS.map(
    (e) => html`<label class="check" for="${prefix}-${e}"><input type="checkbox" id="${prefix}-${e}" name="events" value="${e}"${ticked.includes(e) ? html` checked` : ''}> <span class="mono">${e}</span></label>`,
  );
}

function endpointCard(viewer: Viewer, row: WebhookEndpointRow, now: number): Html {
  const graceEnds = previousSecretUntil(row, now);
  return html`<article class="card" aria-labelledby="h-${row.id}">
<header><h2 id="h-${row.id}" class="mono">${row.url}</h2>${row.enabled ? '' : badge('disabled')}<span class="muted mono">${row.id}</span><span class="muted">created ${when(row.created_at)}</span></header>
<p>Events: ${eventsOf(row).map((e, i) => html`${i ? ', ' : ''}<span class="mono">${e}</span>`)}</p>
${graceEnds === null ? '' : html`<p class="muted">The previous secret also signs deliveries (X-SocialAPI-Signature-Previous) until ${when(graceEnds)}.</p>`}
<div class="actions"><a class="button" href="${BASE}/webhooks/${row.id}">Deliveries</a>
<form method="post" action="${BASE}/webhooks/${row.id}/test">${csrfField(viewer)}<button type="submit">Send a test event</button></form>
<form method="post" action="${BASE}/webhooks/${row.id}/secret" data-confirm="Rotate this endpoint’s signing secret? The current one keeps signing too for 24 hours.">${csrfField(viewer)}<button type="submit">Rotate secret</button></form>
<form method="post" action="${BASE}/webhooks/${row.id}/delete" data-confirm="Delete this endpoint and its delivery history?">${csrfField(viewer)}<button class="danger" type="submit">Delete</button></form></div>
<details><summary>Edit</summary><form method="post" action="${BASE}/webhooks/${row.id}/edit">${csrfField(viewer)}
<div class="field"><label for="url-${row.id}">URL</label><input type="url" id="url-${row.id}" name="url" required maxlength="2000" value="${row.url}"></div>
<fieldset class="field"><legend>Events</legend><div class="targets">${eventChoices(`ev-${row.id}`, eventsOf(row))}</div></fieldset>
<label class="check" for="on-${row.id}"><input type="checkbox" id="on-${row.id}" name="enabled" value="1"${row.enabled ? html` checked` : ''}> Enabled (when off, nothing is sent: its deliveries fail until you redeliver them)</label>
<button class="primary" type="submit">Save</button></form></details></article>`;
}

async function webhooksPage(request: FastifyRequest, notice: Notice | null): Promise<Html> {
  const viewer = await viewerOf(request);
  const endpoints = await listWebhooks(tenantFor(request));
  const now = request.server.deps.clock.now();
  const body = html`<section class="card" aria-labelledby="h-new"><h2 id="h-new">New endpoint</h2>
<form method="post" action="${BASE}/webhooks">${csrfField(viewer)}
<div class="field"><label for="wh-url">URL</label><input type="url" id="wh-url" name="url" required maxlength="2000" placeholder="https://example.com/hooks/socialapi"></div>
<fieldset class="field"><legend>Events</legend><div class="targets">${eventChoices('ev', DEFAULT_EVENTS)}</div></fieldset>
<button class="primary" type="submit">Add endpoint</button></form></section>
${endpoints.length ? endpoints.map((row) => endpointCard(viewer, row, now)) : html`<div class="card empty"><p>No endpoints yet.</p></div>`}`;
  return page(viewer, '/webhooks', 'Webhooks', body, notice);
}

/** The url and events of an endpoint form, checked as the API checks them. */
async function endpointFields(request: FastifyRequest, form: Fields): Promise<{ url: string; events: EventType[] }> {
  const raw = form.get('url')?.trim() ?? '';
  if (!raw) throw new FormError('url', 'required');
  if (raw.length > 2000) throw new FormError('url', 'at most 2000 characters');
  const events = all(form, 'events');
  const unknown = events.find((e) => !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(e));
  if (unknown !== undefined) throw new FormError('events', `${unknown} is not an event`);
  const url = await checkEndpointUrl('url', raw, request.server.deps.config.allowPrivateUrls);
  return { url, events: events as EventType[] };
}

function secretShownOnce(text: string, secret: string): Notice {
  return {
    kind: 'ok',
    text: html`<p>${text} Copy its signing secret now: it is shown only this once.</p>
<div class="secret"><code id="new-secret">${secret}</code><button type="button" data-copy="new-secret" hidden>Copy</button></div>`,
  };
}

/**
 * Every attempt made (the log spans redeliveries), and while the delivery is under way which
 * attempt of its current cycle comes next.
 */
function attemptsCell(d: DeliveryView): Html {
  const made = d.attemptLog.length;
  if (d.status !== 'pending' && d.status !== 'sending') return html`${made}`;
  const next = d.status === 'sending' ? d.attempts : d.attempts + 1;
  return html`${made}<br><span class="muted">${d.status === 'sending' ? 'sending' : 'next'}: ${next} of ${MAX_ATTEMPTS}</span>`;
}

const NOTICES: Record<string, Notice> = {
  deleted: { kind: 'ok', text: 'Endpoint deleted.' },
  tested: { kind: 'ok', text: 'A webhook.test event is on its way to the endpoint; its delivery appears below.' },
  redelivered: { kind: 'ok', text: 'The delivery is queued again, with the same idempotency key.' },
  updated: { kind: 'ok', text: 'Endpoint saved; its signing secret is unchanged.' },
};

export function webhookRoutes(app: FastifyInstance): void {
  app.get('/webhooks', async (request, reply) => {
    const done = fieldsOf(request.query).get('done');
    return sendPage(reply, await webhooksPage(request, (done && NOTICES[done]) || null));
  });

  app.post('/webhooks', async (request, reply) => {
    const { url, events } = await endpointFields(request, fieldsOf(request.body));
    const { row, secret } = await createWebhook(tenantFor(request), request.server.deps, { url, events });
    return sendPage(reply, await webhooksPage(request, secretShownOnce(`Endpoint ${row.id} added.`, secret)), 201);
  });

  app.post<{ Params: { id: string } }>('/webhooks/:id/edit', async (request, reply) => {
    const form = fieldsOf(request.body);
    const { url, events } = await endpointFields(request, form);
    if (!events.length) throw new FormError('events', 'choose at least one');
    if (!(await updateWebhook(tenantFor(request), request.params.id, { url, events, enabled: checked(form, 'enabled') }))) throw errors.notFound('Webhook');
    return reply.redirect(`${BASE}/webhooks?done=updated`, 303);
  });

  app.post<{ Params: { id: string } }>('/webhooks/:id/secret', async (request, reply) => {
    const rotated = await rotateWebhookSecret(tenantFor(request), request.server.deps, request.params.id);
    if (!rotated) throw errors.notFound('Webhook');
    const text = `Endpoint ${rotated.row.id} has a new secret; the previous one also signs deliveries for 24 hours.`;
    return sendPage(reply, await webhooksPage(request, secretShownOnce(text, rotated.secret)));
  });

  app.post<{ Params: { id: string } }>('/webhooks/:id/delete', async (request, reply) => {
    if (!(await deleteWebhook(tenantFor(request), request.params.id))) throw errors.notFound('Webhook');
    return reply.redirect(`${BASE}/webhooks?done=deleted`, 303);
  });

  app.post<{ Params: { id: string } }>('/webhooks/:id/test', async (request, reply) => {
    await testWebhook(tenantFor(request), request.server.deps, request.params.id);
    return reply.redirect(`${BASE}/webhooks/${encodeURIComponent(request.params.id)}?done=tested`, 303);
  });

  app.get<{ Params: { id: string } }>('/webhooks/:id', async (request, reply) => {
    const query = fieldsOf(request.query);
    const before = cursor(query);
    const tenant = tenantFor(request);
    const endpoint = await tenant.selectFrom('webhook_endpoints').selectAll().where('id', '=', request.params.id).executeTakeFirst();
    if (!endpoint) throw errors.notFound('Webhook');
    const [viewer, deliveries] = await Promise.all([viewerOf(request), listDeliveries(tenant, endpoint.id, { limit: DELIVERIES_PAGE_SIZE + 1, ...(before ? { before } : {}) })]);
    const shown = deliveries.slice(0, DELIVERIES_PAGE_SIZE);
    const rows = shown.map(
      (d) => html`<tr><td><span class="mono">${d.event}</span><br><span class="mono muted">${d.id}</span></td><td>${badge(d.status)}</td><td>${attemptsCell(d)}</td>
<td>${d.lastResponseStatus ?? html`<span class="muted">—</span>`}${d.lastError ? html`<br><span class="muted">${d.lastError}</span>` : ''}</td><td>${when(Date.parse(d.createdAt))}</td><td>${when(d.nextAttemptAt === null ? null : Date.parse(d.nextAttemptAt))}</td><td>${d.deliveredAt ? when(Date.parse(d.deliveredAt)) : html`<span class="muted">—</span>`}</td>
<td>${d.attemptLog.length ? html`<details><summary>${d.attemptLog.length} attempt${d.attemptLog.length === 1 ? '' : 's'}</summary><ol>${d.attemptLog.map((a) => html`<li>${when(Date.parse(a.startedAt))}: ${a.responseStatus ?? 'no answer'} in ${a.durationMs} ms${a.error ? html` — ${a.error}` : ''}</li>`)}</ol></details>` : ''}
${d.status === 'sending' ? '' : html`<form method="post" action="${BASE}/webhooks/deliveries/${d.id}/redeliver">${csrfField(viewer)}<input type="hidden" name="webhookId" value="${endpoint.id}"><button type="submit">Redeliver</button></form>`}</td></tr>`,
    );
    const next = deliveries.length > DELIVERIES_PAGE_SIZE ? (shown.at(-1)?.id ?? null) : null;
    const done = query.get('done');
    const body = html`<p class="lead mono">${endpoint.url}</p><div class="actions"><form method="post" action="${BASE}/webhooks/${endpoint.id}/test">${csrfField(viewer)}<button type="submit">Send a test event</button></form><a class="button" href="${BASE}/webhooks/${endpoint.id}">Refresh</a></div>
<div class="card">${shown.length ? html`<table><caption class="muted caption">Deliveries, newest first</caption><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last response</th><th scope="col">Created</th><th scope="col">Next attempt</th><th scope="col">Delivered</th><th scope="col"><span class="sr">Details</span></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="empty">No deliveries${before ? ' further back' : ' yet'}.</p>`}</div>
${pager(`/webhooks/${endpoint.id}`, {}, next, before === undefined)}<p><a href="${BASE}/webhooks">← All endpoints</a></p>`;
    return sendPage(reply, page(viewer, '/webhooks', 'Deliveries', body, (done && NOTICES[done]) || null));
  });

  app.post<{ Params: { deliveryId: string } }>('/webhooks/deliveries/:deliveryId/redeliver', async (request, reply) => {
    const view = await redeliver(tenantFor(request), request.server.deps, request.params.deliveryId);
    return reply.redirect(`${BASE}/webhooks/${encodeURIComponent(view.webhookId)}?done=redelivered`, 303);
  });
}
