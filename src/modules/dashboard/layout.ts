// The page shell: skip link, top bar with the sections and the signed-in organization, one <main>
// with the page's <h1>. Every form that changes state gets the session's CSRF token from csrfField.
import { html, type Fragment, type Html } from './html.ts';

export const BASE = '/dashboard';

export const SECTIONS = [
  { path: '/approvals', label: 'Approvals' },
  { path: '/posts', label: 'Posts' },
  { path: '/accounts', label: 'Accounts' },
  { path: '/keys', label: 'API keys' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/mcp-clients', label: 'MCP clients' },
] as const;

export type Section = (typeof SECTIONS)[number]['path'];

export interface Viewer {
  organizationId: string;
  organizationName: string;
  email: string | null;
  csrf: string;
  /** Posts waiting for approval, shown beside the section's name. */
  waiting: number;
}

export const csrfField = (viewer: Pick<Viewer, 'csrf'>): Html => html`<input type="hidden" name="_csrf" value="${viewer.csrf}">`;

export interface Notice {
  kind: 'ok' | 'bad' | 'info';
  text: Fragment;
}

function head(title: string): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · socialapi dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${BASE}/assets/dashboard.css">
<script src="${BASE}/assets/dashboard.js" defer></script>
</head>`;
}

export function page(viewer: Viewer, section: Section | null, title: string, body: Fragment, notice?: Notice | null): Html {
  const nav = SECTIONS.map(
    (s) =>
      html`<li><a href="${BASE}${s.path}"${s.path === section ? html` aria-current="page"` : ''}>${s.label}${s.path === '/approvals' && viewer.waiting > 0 ? html`<span class="count" aria-label="${viewer.waiting} waiting">${viewer.waiting}</span>` : ''}</a></li>`,
  );
  return html`${head(title)}<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="bar">
<a class="brand" href="${BASE}/approvals">socialapi</a>
<nav aria-label="Sections"><ul>${nav}</ul></nav>
<div class="who"><a class="reference" href="/docs">API reference</a><span title="${viewer.organizationId}">${viewer.organizationName}${viewer.email ? html` · ${viewer.email}` : ''}</span>
<form method="post" action="${BASE}/logout" class="inline">${csrfField(viewer)}<button type="submit">Sign out</button></form></div>
</div></header>
<main id="main" tabindex="-1">
<h1>${title}</h1>
${notice ? html`<div class="notice ${notice.kind}" role="${notice.kind === 'bad' ? 'alert' : 'status'}">${notice.text}</div>` : ''}
${body}
</main></body></html>`;
}

/** A page for someone without a session (sign-in, a spent link). */
export function bare(title: string, body: Fragment): Html {
  return html`${head(title)}<body><main id="main" class="signin"><div class="card"><h1>${title}</h1>${body}</div></main></body></html>`;
}

/** "Older" link for keyset paging; `params` keeps the page's filters. */
export function pager(path: string, params: Record<string, string | undefined>, next: string | null, first: boolean): Html {
  const query = (extra: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, ...extra })) if (v) search.set(k, v);
    const text = search.toString();
    return text ? `?${text}` : '';
  };
  return html`<nav class="pager" aria-label="Pages">${first ? html`<span></span>` : html`<a href="${BASE}${path}${query({ before: undefined })}">← Newest</a>`}${next ? html`<a href="${BASE}${path}${query({ before: next })}">Older →</a>` : html`<span></span>`}</nav>`;
}
