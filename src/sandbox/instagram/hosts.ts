// www.instagram.com (authorize, and the page of each post its permalinks open), api.instagram.com
// (authorize and code exchange) and graph.instagram.com
// (Instagram Login tokens): the account, containers, media, comments and messaging nodes, which
// are the same as on graph.facebook.com with the Instagram Login access rules (access.ts).
import type { RouteContext } from '../core/router.ts';
import { Host } from '../core/router.ts';
import { graphToken } from '../meta/auth.ts';
import { graphHostErrors, unsupportedRequest } from '../meta/graph-error.ts';
import { GraphNodes } from '../meta/nodes.ts';
import type { GraphInput } from '../meta/params.ts';
import { messagingNodes } from '../messaging/conversations.ts';
import { igAccess } from './access.ts';
import { igCommentNode } from './comments.ts';
import { igContainerNode, igMediaNode } from './media.ts';
import { instagramUserNode } from './user-node.ts';
import { exchangeLongLived, refreshLongLived } from '../meta/token-exchange.ts';
import { registerConsent } from '../oauth/consent.ts';
import { instagramCodeExchange, instagramConsent, instagramFlavour } from './login.ts';
import { registerInstagramPostPages } from './post-page.ts';

export const instagramToken = (ctx: RouteContext, input: GraphInput) => graphToken(ctx, input, { platforms: ['instagram'] });

export function instagramWebHosts(): Host[] {
  const www = new Host('www.instagram.com', graphHostErrors);
  registerConsent(www, '/oauth/authorize', instagramConsent);
  registerInstagramPostPages(www);
  const api = new Host('api.instagram.com', graphHostErrors);
  registerConsent(api, '/oauth/authorize', instagramConsent);
  api.post('/oauth/access_token', instagramCodeExchange);
  return [www, api];
}

/** Conversations, messages and people are readable by the account they belong to. */
function inboxGuard(ctx: RouteContext, input: GraphInput, accountId: string): void {
  const account = ctx.state.people.instagramAccounts.get(accountId);
  if (!account) throw unsupportedRequest(ctx.method, ctx.path.slice(1));
  igAccess(ctx, input, account, 'messages');
}

export function instagramGraphNodes(): GraphNodes {
  return new GraphNodes().add(instagramUserNode, igContainerNode, igMediaNode, igCommentNode, ...messagingNodes(inboxGuard));
}

export function instagramGraphHost(nodes = instagramGraphNodes()): Host {
  const host = new Host('graph.instagram.com', graphHostErrors, { graphVersion: true });
  host.get('/access_token', (ctx) => exchangeLongLived(ctx, instagramFlavour));
  host.get('/refresh_access_token', (ctx) => refreshLongLived(ctx, instagramFlavour));
  nodes.mount(host, { me: (ctx, input) => instagramToken(ctx, input).subjectId });
  return host;
}
