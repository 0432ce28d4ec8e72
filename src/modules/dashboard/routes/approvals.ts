// The approvals queue: posts held for approval, newest first, a page at a time; approve (the post
// is scheduled, or queued when its time has come) or reject with a reason. Both go through the
// posts module's approvePost/rejectPost, the functions the CLI calls, so the same events leave.
import type { FastifyInstance } from 'fastify';
import { listPostsPage, type PostWithTargets } from '../../posts/repo.ts';
import { approvePost, rejectPost, type ApprovalResult } from '../../posts/approval.ts';
import { ApiError, errors } from '../../../http/errors.ts';
import { cursor, fieldsOf, optionalText } from '../form.ts';
import { sendPage, sessionOf, tenantFor, viewerOf } from '../guard.ts';
import { html, when, type Html } from '../html.ts';
import { BASE, csrfField, page, pager, type Notice, type Viewer } from '../layout.ts';
import { reviewerOf } from '../sessions.ts';
import { accountNames, mediaPreviews, reviewLine, targetCards, type AccountNames } from '../views.ts';

export const APPROVALS_PAGE_SIZE = 20;
const REASON_MAX = 1000;

function card(viewer: Viewer, { post, targets }: PostWithTargets, names: AccountNames, keys: ReadonlyMap<string, string>, now: number): Html {
  const later = post.scheduled_for !== null && post.scheduled_for > now;
  const source = post.api_key_id === null ? null : (keys.get(post.api_key_id) ?? `the key “${post.api_key_id}”`);
  return html`<article class="card" id="${post.id}" aria-labelledby="h-${post.id}">
<header><h2 id="h-${post.id}">Post <span class="mono">${post.id}</span></h2><span class="muted">created ${when(post.created_at)}${source ? html` with ${source}` : ''}</span></header>
<div class="content">${post.content}</div>
${mediaPreviews(targets)}
<p>${later ? html`Scheduled for ${when(post.scheduled_for)}: approving schedules it.` : html`Publishes as soon as it is approved.`}</p>
${targetCards(targets, names, false)}
${reviewLine(post)}
<div class="actions">
<form method="post" action="${BASE}/approvals/${post.id}/approve">${csrfField(viewer)}<button class="primary" type="submit">Approve</button></form>
<form method="post" action="${BASE}/approvals/${post.id}/reject" class="reject">${csrfField(viewer)}
<div class="grow"><label for="reason-${post.id}">Reason for rejecting (optional)</label>
<textarea id="reason-${post.id}" name="reason" maxlength="${REASON_MAX}" rows="2"></textarea></div>
<button class="danger" type="submit">Reject</button></form>
</div></article>`;
}

const NOTICES: Record<string, (post: string) => Notice> = {
  scheduled: (post) => ({ kind: 'ok', text: html`Approved <span class="mono">${post}</span>: it is scheduled.` }),
  queued: (post) => ({ kind: 'ok', text: html`Approved <span class="mono">${post}</span>: it is being published.` }),
  rejected: (post) => ({ kind: 'ok', text: html`Rejected <span class="mono">${post}</span>.` }),
};

function outcome(result: ApprovalResult): string {
  if (result.ok) return result.status;
  if (result.reason === 'not_found') throw errors.notFound('Post');
  throw new ApiError(409, `The post is ${result.status.replace('_', ' ')}, not waiting for approval; someone may have decided already.`);
}

export function approvalRoutes(app: FastifyInstance): void {
  app.get('/approvals', async (request, reply) => {
    const query = fieldsOf(request.query);
    const before = cursor(query);
    const tenant = tenantFor(request);
    const [viewer, posts] = await Promise.all([viewerOf(request), listPostsPage(tenant, { status: 'pending_approval', ...(before ? { before } : {}), limit: APPROVALS_PAGE_SIZE + 1 })]);
    const shown = posts.slice(0, APPROVALS_PAGE_SIZE);
    const keyIds = [...new Set(shown.flatMap((p) => (p.post.api_key_id === null ? [] : [p.post.api_key_id])))];
    const [names, keyRows] = await Promise.all([
      accountNames(tenant, shown.flatMap((p) => p.targets)),
      keyIds.length ? tenant.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', keyIds).execute() : Promise.resolve([]),
    ]);
    // A post made by a remote MCP client carries its connection's id where a key's would be.
    const grantIds = keyIds.filter((id) => id.startsWith('mcpg_'));
    const grantRows = grantIds.length
      ? await tenant.db.selectFrom('mcp_grants').innerJoin('mcp_clients', 'mcp_clients.id', 'mcp_grants.client_id').select(['mcp_grants.id', 'mcp_clients.client_name']).where('mcp_grants.organization_id', '=', tenant.organizationId).where('mcp_grants.id', 'in', grantIds).execute()
      : [];
    const keys = new Map([...keyRows.map((k): [string, string] => [k.id, `the key “${k.name}”`]), ...grantRows.map((g): [string, string] => [g.id, `the MCP client “${g.client_name ?? g.id}”`])]);
    const now = request.server.deps.clock.now();
    const done = query.get('done');
    const notice = done && NOTICES[done] ? NOTICES[done](query.get('post') ?? '') : null;
    const body = shown.length
      ? html`<p class="lead">Posts held for approval, newest first.</p>${shown.map((p) => card(viewer, p, names, keys, now))}${pager('/approvals', {}, posts.length > APPROVALS_PAGE_SIZE ? (shown.at(-1)?.post.id ?? null) : null, before === undefined)}`
      : html`<div class="card empty"><p>Nothing is waiting for approval${before ? ' further back' : ''}.</p></div>${before ? pager('/approvals', {}, null, false) : ''}`;
    return sendPage(reply, page(viewer, '/approvals', 'Approvals', body, notice));
  });

  app.post<{ Params: { id: string } }>('/approvals/:id/approve', async (request, reply) => {
    const session = sessionOf(request);
    const result = await approvePost(request.server.deps, request.params.id, { reviewer: reviewerOf(session), organizationId: session.organizationId });
    return reply.redirect(`${BASE}/approvals?done=${outcome(result)}&post=${encodeURIComponent(request.params.id)}`, 303);
  });

  app.post<{ Params: { id: string } }>('/approvals/:id/reject', async (request, reply) => {
    const session = sessionOf(request);
    const reason = optionalText(fieldsOf(request.body), 'reason', REASON_MAX);
    const result = await rejectPost(request.server.deps, request.params.id, reason, { reviewer: reviewerOf(session), organizationId: session.organizationId });
    return reply.redirect(`${BASE}/approvals?done=${outcome(result)}&post=${encodeURIComponent(request.params.id)}`, 303);
  });
}
