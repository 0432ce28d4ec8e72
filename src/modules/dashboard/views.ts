// Pieces of pages shared by the approvals and posts pages: a post's targets with their options,
// warnings and results, its media previews, and who reviewed it.
import type { AccountRow, PostRow, PostTargetRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { mediaUrlsOf } from '../posts/media-refs.ts';
import { badge, html, when, type Html } from './html.ts';

export type AccountNames = ReadonlyMap<string, Pick<AccountRow, 'platform' | 'username' | 'display_name'>>;

/** The accounts the targets name, in one query. */
export async function accountNames(tenant: Tenant, targets: readonly PostTargetRow[]): Promise<AccountNames> {
  const ids = [...new Set(targets.map((t) => t.account_id))];
  if (!ids.length) return new Map();
  const rows = await tenant.selectFrom('accounts').select(['id', 'platform', 'username', 'display_name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

const optionsOf = (target: PostTargetRow) => parse<Record<string, unknown>>(target.options, {});

const VIDEO = /\.(mp4|mov|webm|m4v)(\?|$)/i;
const IMAGE = /\.(jpe?g|png|gif|webp|avif)(\?|$)/i;

export function mediaPreviews(targets: readonly PostTargetRow[]): Html {
  const urls = mediaUrlsOf(targets.map((t) => ({ options: optionsOf(t) }))).filter((u) => /^https?:\/\//i.test(u));
  if (!urls.length) return html``;
  const items = urls.map((url) => {
    if (VIDEO.test(url)) return html`<video src="${url}" controls preload="metadata" aria-label="Video ${url}"></video>`;
    if (IMAGE.test(url) || !/\.[a-z0-9]{2,5}(\?|$)/i.test(url)) return html`<a href="${url}" target="_blank" rel="noopener noreferrer"><img src="${url}" alt="Media of the post: ${url}" loading="lazy"></a>`;
    return html`<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`;
  });
  return html`<div class="media" aria-label="Media">${items}</div>`;
}

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export function accountLabel(names: AccountNames, accountId: string): string {
  const account = names.get(accountId);
  return account ? `${account.username ?? account.display_name ?? accountId}` : accountId;
}

/** One card per target: account, options as sent to the platform, warnings; results once delivered. */
export function targetCards(targets: readonly PostTargetRow[], names: AccountNames, results: boolean): Html {
  const cards = targets.map((t) => {
    const options = Object.entries(optionsOf(t));
    const warnings = parse<Array<{ key: string; message: string }>>(t.warnings, []);
    return html`<section class="target" aria-label="${t.platform} target">
<strong>${t.platform}</strong> · ${accountLabel(names, t.account_id)} ${results ? badge(t.status) : ''}
<dl>${options.map(([k, v]) => html`<dt>${k}</dt><dd>${shown(v)}</dd>`)}
${results ? html`<dt>attempts</dt><dd>${t.attempts}</dd>${t.url ? html`<dt>url</dt><dd><a href="${t.url}" target="_blank" rel="noopener noreferrer">${t.url}</a></dd>` : ''}${t.error ? html`<dt>error</dt><dd>${t.error}</dd>` : ''}${t.published_at ? html`<dt>published</dt><dd>${when(t.published_at)}</dd>` : ''}` : ''}</dl>
${warnings.length ? html`<ul class="warnings" aria-label="Warnings">${warnings.map((w) => html`<li><span class="mono">${w.key}</span>: ${w.message}</li>`)}</ul>` : ''}
</section>`;
  });
  return html`<div class="targets">${cards}</div>`;
}

export function reviewLine(post: PostRow): Html {
  if (post.reviewed_by === null || post.reviewed_at === null) return html``;
  const verb = post.status === 'rejected' ? 'Rejected' : post.status === 'pending_approval' ? 'Last reviewed' : 'Approved';
  return html`<p class="muted">${verb} by <strong>${post.reviewed_by}</strong> on ${when(post.reviewed_at)}${post.status === 'rejected' && post.rejected_reason ? html` — reason: “${post.rejected_reason}”` : ''}</p>`;
}
