// The Pages and Instagram nodes of graph.facebook.com, in one list for facebookGraphNodes():
// Page content (posts, comments, photos, videos), Instagram (Facebook Login flavour: the
// account, containers, media, comments) and the messaging nodes (conversations, messages,
// people), whose reads need the Page's Messenger inbox or the linked Instagram account's.
import type { RouteContext } from '../core/router.ts';
import { unsupportedRequest } from '../meta/graph-error.ts';
import type { NodeResolver } from '../meta/nodes.ts';
import type { GraphInput } from '../meta/params.ts';
import { igAccess } from '../instagram/access.ts';
import { igCommentNode } from '../instagram/comments.ts';
import { igContainerNode, igMediaNode } from '../instagram/media.ts';
import { instagramUserNode } from '../instagram/user-node.ts';
import { messagingNodes } from '../messaging/conversations.ts';
import { pageAccess } from './access.ts';
import { commentNode, photoNode, postNode, videoNode } from './post-nodes.ts';

function inboxGuard(ctx: RouteContext, input: GraphInput, accountId: string): void {
  const page = ctx.state.people.pages.get(accountId);
  if (page) return void pageAccess(ctx, input, page, 'messaging');
  const account = ctx.state.people.instagramAccounts.get(accountId);
  if (!account) throw unsupportedRequest(ctx.method, ctx.path.slice(1));
  igAccess(ctx, input, account, 'messages');
}

export const metaGraphNodes: NodeResolver[] = [
  postNode,
  commentNode,
  photoNode,
  videoNode,
  instagramUserNode,
  igContainerNode,
  igMediaNode,
  igCommentNode,
  ...messagingNodes(inboxGuard),
];
