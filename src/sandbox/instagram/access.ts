// Who may do what on an Instagram account, on both hosts (platforms.md §2.1): on
// graph.facebook.com a Facebook Login token (user or Page) whose granted Pages include the
// account's linked Page, the instagram_* permission of the action, and the Page task the action
// needs; on graph.instagram.com an Instagram Login token of the account itself with the
// instagram_business_* permission. Missing permissions are code 10 on both (§2.4, §12).
import type { TokenRecord } from '../core/model.ts';
import type { InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { graphToken, requireScopes } from '../meta/auth.ts';
import { unsupportedRequest } from '../meta/graph-error.ts';
import type { GraphInput } from '../meta/params.ts';
import { requireTask } from '../facebook/access.ts';

export type IgAction = 'basic' | 'publish' | 'comments' | 'messages' | 'insights';

const FACEBOOK_LOGIN: Record<IgAction, string[]> = {
  basic: ['instagram_basic'],
  publish: ['instagram_basic', 'instagram_content_publish'],
  comments: ['instagram_basic', 'instagram_manage_comments'],
  messages: ['instagram_basic', 'instagram_manage_messages'],
  insights: ['instagram_basic', 'instagram_manage_insights'],
};

const INSTAGRAM_LOGIN: Record<IgAction, string[]> = {
  basic: ['instagram_business_basic'],
  publish: ['instagram_business_basic', 'instagram_business_content_publish'],
  comments: ['instagram_business_basic', 'instagram_business_manage_comments'],
  messages: ['instagram_business_basic', 'instagram_business_manage_messages'],
  insights: ['instagram_business_basic', 'instagram_business_manage_insights'],
};

const TASKS: Record<IgAction, string | null> = { basic: null, publish: 'CREATE_CONTENT', comments: 'MODERATE', messages: 'MESSAGING', insights: 'ANALYZE' };

export const isInstagramHost = (ctx: RouteContext): boolean => ctx.host === 'graph.instagram.com';

export function igAccess(ctx: RouteContext, input: GraphInput, account: InstagramAccount, action: IgAction): TokenRecord {
  const path = ctx.path.replace(/^\//, '');
  if (isInstagramHost(ctx)) {
    const token = graphToken(ctx, input, { platforms: ['instagram'] });
    if (token.subjectId !== account.id) throw unsupportedRequest(ctx.method, path);
    requireScopes(token, INSTAGRAM_LOGIN[action], 10);
    return token;
  }
  const token = graphToken(ctx, input, { platforms: ['facebook'] });
  if (!account.pageId || !token.pageIds.includes(account.pageId)) throw unsupportedRequest(ctx.method, path);
  requireScopes(token, FACEBOOK_LOGIN[action], 10);
  if (action === 'publish') requireScopes(token, ['pages_read_engagement'], 10);
  const task = TASKS[action];
  const page = ctx.state.people.pages.get(account.pageId);
  if (task && page) requireTask(page, task);
  return token;
}
