// Who may do what on a Page (platforms.md §1.5, §3): a token whose granted Pages include it, the
// pages_* permissions of the action, the Page task the person holds (CREATE_CONTENT to publish,
// MODERATE for comments, MESSAGING to send, ANALYZE for insights; MANAGE covers all), and for
// writes a Page token: a user token is refused with "(#190) This method must be called with a
// Page Access Token" (seen in client bug reports; code as reported).
import type { TokenRecord } from '../core/model.ts';
import type { FacebookPage } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { graphToken, requireScopes } from '../meta/auth.ts';
import { graphError, unsupportedRequest } from '../meta/graph-error.ts';
import type { GraphInput } from '../meta/params.ts';

export type PageAction = 'read' | 'publish' | 'moderate' | 'messaging' | 'analyze';

const SCOPES: Record<PageAction, string[]> = {
  read: ['pages_read_engagement'],
  publish: ['pages_manage_posts', 'pages_read_engagement'],
  moderate: ['pages_manage_engagement', 'pages_read_engagement'],
  messaging: ['pages_messaging'],
  analyze: ['read_insights', 'pages_read_engagement'],
};

const TASKS: Record<PageAction, string | null> = { read: null, publish: 'CREATE_CONTENT', moderate: 'MODERATE', messaging: 'MESSAGING', analyze: 'ANALYZE' };

export function requireTask(page: FacebookPage, task: string): void {
  if (page.tasks.includes(task) || page.tasks.includes('MANAGE')) return;
  throw graphError({ code: 200, message: '(#200) The user does not have sufficient administrative permission for this action on this page.' });
}

export function pageAccess(ctx: RouteContext, input: GraphInput, page: FacebookPage, action: PageAction): TokenRecord {
  const token = graphToken(ctx, input, { platforms: ['facebook'] });
  if (!token.pageIds.includes(page.id)) throw unsupportedRequest(ctx.method, ctx.path.replace(/^\//, ''));
  if (action !== 'read' && token.type !== 'page') {
    throw graphError({ code: 190, message: '(#190) This method must be called with a Page Access Token' });
  }
  const missing = SCOPES[action].filter((s) => !token.scopes.includes(s));
  if (missing.length && action === 'publish') {
    throw graphError({
      code: 200,
      message: '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission',
    });
  }
  requireScopes(token, SCOPES[action]);
  const task = TASKS[action];
  if (task) requireTask(page, task);
  return token;
}
