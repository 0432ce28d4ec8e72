// Lists of ad objects are read live from the Marketing API, a page at a time. The cursor handed
// to clients wraps Meta's so that its form may change; `statuses` filters by effective status.
import { errors } from '../../http/errors.ts';
import type { AdListRequest } from '../../platforms/types.ts';

const PREFIX = 'a1.';
export const wrapCursor = (after: string | null): string | null => (after === null ? null : PREFIX + Buffer.from(after, 'utf8').toString('base64url'));

export function unwrapCursor(after: string | undefined): string | null {
  if (after === undefined) return null;
  const body = after.startsWith(PREFIX) ? after.slice(PREFIX.length) : '';
  const decoded = /^[A-Za-z0-9_-]+$/.test(body) ? Buffer.from(body, 'base64url').toString('utf8') : '';
  if (!decoded || decoded.includes('\u0000')) throw errors.invalid('after', 'not a cursor of this API');
  return decoded;
}

/** Effective statuses Meta filters lists by (platforms.md §9.4). */
export const EFFECTIVE_STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'PENDING_REVIEW', 'DISAPPROVED', 'PREAPPROVED', 'PENDING_BILLING_INFO', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'IN_PROCESS', 'WITH_ISSUES'];

export function parseStatuses(statuses: string | undefined): string[] {
  if (statuses === undefined) return [];
  const list = statuses.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  for (const status of list) if (!EFFECTIVE_STATUSES.includes(status)) throw errors.invalid('statuses', `must be a comma list of ${EFFECTIVE_STATUSES.join(', ')}`);
  return list;
}

export interface ListQuery {
  limit?: number | undefined;
  after?: string | undefined;
  statuses?: string | undefined;
}

export const listRequest = (query: ListQuery): AdListRequest => ({ limit: query.limit ?? 25, after: unwrapCursor(query.after), statuses: parseStatuses(query.statuses) });
