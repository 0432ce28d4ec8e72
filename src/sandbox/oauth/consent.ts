// The consent step shared by every platform's authorize page: GET shows who consents, the
// permissions asked (and for Facebook the Pages to grant); the form POSTs back to the same URL;
// Allow redirects to redirect_uri with `code` and `state`, Cancel with the platform's error
// parameters. A consent choice queued through the control API completes the request at once.
import { escapeHtml, page } from '../core/html.ts';
import type { AuthorizationCode, ConsentChoice, OAuthPlatform, PendingAuthorization } from '../core/model.ts';
import type { Host, RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';

export interface Grant {
  subjectId: string;
  scopes: string[];
  declined: string[];
  pageIds: string[];
}

export interface ConsentFlow {
  platform: OAuthPlatform;
  /** The platform's name on the page. */
  title: string;
  /** Whether the person may untick permissions (reddit is all or nothing). */
  scopesSelectable: boolean;
  /** The people who may consent. */
  subjects(state: SandboxState): Array<{ id: string; label: string }>;
  /** Facebook: the Pages each person may grant. */
  pages?(state: SandboxState, subjectId: string): Array<{ id: string; name: string }>;
  /** Validates the authorize query; returns the request, or sends an error (page or redirect). */
  parse(ctx: RouteContext): Omit<PendingAuthorization, 'id' | 'createdAt'> | null;
  /** Where Allow goes, given the issued code. */
  allowRedirect(request: PendingAuthorization, code: AuthorizationCode): string;
  /** Where Cancel goes. */
  denyRedirect(request: PendingAuthorization): string;
  codeTtlSeconds(state: SandboxState): number;
  /** The code's text, where the platform's codes have a shape of their own (default: the sandbox's). */
  codeValue?(state: SandboxState): string;
}

const PENDING_TTL_MS = 3_600_000;

export function registerConsent(host: Host, path: string, flow: ConsentFlow): void {
  host.get(path, (ctx) => {
    const parsed = flow.parse(ctx);
    if (!parsed) return ctx.reply;
    const request: PendingAuthorization = { ...parsed, id: ctx.state.ids.opaque('consent', 24), createdAt: ctx.state.clock.now() };
    const queued = ctx.state.takeConsent(flow.platform);
    if (queued) return ctx.reply.redirect(decide(ctx.state, flow, request, queued), 302);
    ctx.state.authorizations.set(request.id, request);
    return ctx.reply.type('text/html; charset=utf-8').send(render(ctx, flow, request));
  });
  host.post(path, (ctx) => {
    const form = (ctx.body ?? {}) as Record<string, unknown>;
    const id = typeof form.request === 'string' ? form.request : '';
    const request = ctx.state.authorizations.get(id);
    if (!request || request.createdAt + PENDING_TTL_MS < ctx.state.clock.now()) {
      return ctx.reply.status(400).type('text/html; charset=utf-8').send(page('Error', '<h1>This authorization request has expired</h1><p>Start again from the app.</p>'));
    }
    ctx.state.authorizations.delete(id);
    const choice: ConsentChoice = {
      decision: form.decision === 'allow' ? 'allow' : 'deny',
      subjectId: typeof form.subject === 'string' ? form.subject : undefined,
      scopes: flow.scopesSelectable ? values(form.scope) : undefined,
      pageIds: flow.pages ? values(form.page) : undefined,
    };
    return ctx.reply.redirect(decide(ctx.state, flow, request, choice), 302);
  });
}

function values(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? [value] : [];
}

/** Turns a consent choice into the redirect: a fresh single-use code, or the cancel parameters. */
function decide(state: SandboxState, flow: ConsentFlow, request: PendingAuthorization, choice: ConsentChoice): string {
  if (choice.decision === 'deny') return flow.denyRedirect(request);
  const subjects = flow.subjects(state);
  const subjectId = subjects.find((s) => s.id === choice.subjectId)?.id ?? subjects[0]?.id;
  if (!subjectId) return flow.denyRedirect(request);
  const scopes = choice.scopes ? request.scopes.filter((s) => choice.scopes?.includes(s)) : request.scopes;
  const ownPages = flow.pages?.(state, subjectId).map((p) => p.id) ?? [];
  const grant: Grant = {
    subjectId,
    scopes,
    declined: request.scopes.filter((s) => !scopes.includes(s)),
    pageIds: choice.pageIds ? ownPages.filter((id) => choice.pageIds?.includes(id)) : ownPages,
  };
  const code = state.issueCode({
    platform: flow.platform,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    subjectId: grant.subjectId,
    scopes: grant.scopes,
    declined: grant.declined,
    pageIds: grant.pageIds,
    permanent: request.permanent,
    codeChallenge: request.codeChallenge,
    ttlSeconds: flow.codeTtlSeconds(state),
    code: flow.codeValue?.(state),
  });
  return flow.allowRedirect(request, code);
}

function render(ctx: RouteContext, flow: ConsentFlow, request: PendingAuthorization): string {
  const app = ctx.state.findApp(flow.platform, request.clientId);
  const subjects = flow.subjects(ctx.state);
  const subjectInputs = subjects
    .map((s, i) => `<label><input type="radio" name="subject" value="${escapeHtml(s.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(s.label)}</label>`)
    .join('\n');
  const scopeInputs = request.scopes
    .map((s) =>
      flow.scopesSelectable
        ? `<label><input type="checkbox" name="scope" value="${escapeHtml(s)}" checked> ${escapeHtml(s)}</label>`
        : `<label>• ${escapeHtml(s)}</label>`,
    )
    .join('\n');
  const pageInputs = flow.pages
    ? subjects
        .flatMap((s) => (flow.pages?.(ctx.state, s.id) ?? []).map((p) => ({ ...p, owner: s.label })))
        .map((p) => `<label><input type="checkbox" name="page" value="${escapeHtml(p.id)}" checked> ${escapeHtml(p.name)} <span class="note">(${escapeHtml(p.owner)})</span></label>`)
        .join('\n')
    : '';
  const action = `${ctx.baseUrl}/${ctx.host}${ctx.version ? `/${ctx.version}` : ''}${ctx.path}`;
  return page(
    `${flow.title} — authorize ${app?.name ?? request.clientId}`,
    `<h1>${escapeHtml(flow.title)} (sandbox)</h1>
<p><strong>${escapeHtml(app?.name ?? request.clientId)}</strong> would like to access your account.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="request" value="${escapeHtml(request.id)}">
<fieldset><legend>Continue as</legend>
${subjectInputs || '<p>No sandbox account on this platform: seed one through the control API.</p>'}
</fieldset>
<fieldset><legend>Permissions asked</legend>
${scopeInputs || '<p class="note">None</p>'}
</fieldset>
${flow.pages ? `<fieldset><legend>Pages to grant</legend>\n${pageInputs || '<p class="note">No Pages</p>'}\n</fieldset>` : ''}
<p class="note">Redirects to ${escapeHtml(request.redirectUri)}</p>
<button class="allow" type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>`,
  );
}

/** Appends parameters to a redirect URI that may already carry a query, plus a fragment. */
export function redirectTo(uri: string, params: Record<string, string | null>, fragment = ''): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return `${url.toString()}${fragment}`;
}

/** A plain HTML error page, for authorize requests that cannot be redirected back. */
export function sendErrorPage(ctx: RouteContext, title: string, message: string): null {
  void ctx.reply.status(400).type('text/html; charset=utf-8').send(page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`));
  return null;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
