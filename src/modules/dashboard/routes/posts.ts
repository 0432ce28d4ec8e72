// Posts with a status filter, a page at a time, each with its targets' results (status, url,
// error, attempts) and who reviewed it; a failed or partial post can be retried, which is the
// API's POST /posts/{id}/publish (failed targets start over).
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../http/errors.ts';
import { publishPost } from '../../posts/lifecycle.ts';
import { listPostsPage, type PostWithTargets } from '../../posts/repo.ts';
import { POST_STATUSES } from '../../posts/schemas.ts';
import { cursor, fieldsOf, FormError } from '../form.ts';
import { sendPage, sessionOf, tenantFor, viewerOf } from '../guard.ts';
import { badge, html, when, type Html } from '../html.ts';
import { BASE, csrfField, page, pager, type Notice, type Viewer } from '../layout.ts';
import { accountNames, mediaPreviews, reviewLine, targetCards, type AccountNames } from '../views.ts';

export const POSTS_PAGE_SIZE = 25;
/** Accounts offered in the filter; an organization with more filters by link (?account=acc_…). */
const ACCOUNT_CHOICES = 200;
const RETRYABLE = new Set(['failed', 'partial']);

function card(viewer: Viewer, { post, targets }: PostWithTargets, names: AccountNames, status: string | undefined): Html {
  return html`<article class="card" id="${post.id}" aria-labelledby="h-${post.id}">
<header><h2 id="h-${post.id}">Post <span class="mono">${post.id}</span></h2>${badge(post.status)}<span class="muted">created ${when(post.created_at)}${post.scheduled_for !== null ? html` · scheduled for ${when(post.scheduled_for)}` : ''}</span></header>
<div class="content">${post.content}</div>
${mediaPreviews(targets)}
${targetCards(targets, names, true)}
${reviewLine(post)}
${RETRYABLE.has(post.status) ? html`<form method="post" action="${BASE}/posts/${post.id}/retry">${csrfField(viewer)}${status ? html`<input type="hidden" name="status" value="${status}">` : ''}<button class="primary" type="submit">Retry failed targets</button></form>` : ''}
</article>`;
}

function statusFilter(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(POST_STATUSES as readonly string[]).includes(value)) throw new FormError('status', `one of ${POST_STATUSES.join(', ')}`);
  return value;
}

export function postRoutes(app: FastifyInstance): void {
  app.get('/posts', async (request, reply) => {
    const query = fieldsOf(request.query);
    const status = statusFilter(query.get('status'));
    const before = cursor(query);
    const accountId = cursor(query, 'account');
    const tenant = tenantFor(request);
    const [viewer, posts, accounts] = await Promise.all([
      viewerOf(request),
      listPostsPage(tenant, { ...(status ? { status } : {}), ...(accountId ? { accountId } : {}), ...(before ? { before } : {}), limit: POSTS_PAGE_SIZE + 1 }),
      tenant.selectFrom('accounts').select(['id', 'platform', 'username', 'display_name']).orderBy('id').limit(ACCOUNT_CHOICES).execute(),
    ]);
    const shown = posts.slice(0, POSTS_PAGE_SIZE);
    const names = await accountNames(tenant, shown.flatMap((p) => p.targets));
    const filters = html`<form method="get" action="${BASE}/posts" class="filters" role="search">
<div class="field"><label for="status">Status</label><select id="status" name="status"><option value="">any</option>${POST_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${s.replace('_', ' ')}</option>`)}</select></div>
<div class="field"><label for="account">Account</label><select id="account" name="account"><option value="">any</option>${accounts.map((a) => html`<option value="${a.id}"${a.id === accountId ? html` selected` : ''}>${a.platform} · ${a.username ?? a.display_name ?? a.id}</option>`)}</select></div>
<button type="submit">Filter</button></form>`;
    const retried = query.get('done') === 'retried' ? ({ kind: 'ok', text: html`Retrying <span class="mono">${query.get('post') ?? ''}</span>: its failed targets are queued again.` } satisfies Notice) : null;
    const list = shown.length ? shown.map((p) => card(viewer, p, names, status)) : html`<div class="card empty"><p>No posts${status || accountId ? ' match these filters' : ' yet'}.</p></div>`;
    const next = posts.length > POSTS_PAGE_SIZE ? (shown.at(-1)?.post.id ?? null) : null;
    return sendPage(reply, page(viewer, '/posts', 'Posts', html`${filters}${list}${pager('/posts', { status, account: accountId }, next, before === undefined)}`, retried));
  });

  app.post<{ Params: { id: string } }>('/posts/:id/retry', async (request, reply) => {
    const { deps } = request.server;
    const session = sessionOf(request);
    const tenant = tenantFor(request);
    const org = await deps.store.db.selectFrom('organizations').select('approval_required').where('id', '=', session.organizationId).executeTakeFirst();
    if (!org) throw errors.notFound('Organization');
    // The dashboard acts as no key: only the organization's and accounts' approval settings apply
    // (an approved post is never held again by a retry).
    await publishPost(deps, tenant, { keyId: session.id, organizationId: session.organizationId, rateLimit: null, approvalRequired: org.approval_required === 1 }, request.params.id);
    const status = statusFilter(fieldsOf(request.body).get('status'));
    return reply.redirect(`${BASE}/posts?done=retried&post=${encodeURIComponent(request.params.id)}${status ? `&status=${status}` : ''}`, 303);
  });
}
