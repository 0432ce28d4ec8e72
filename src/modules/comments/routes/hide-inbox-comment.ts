import type { Api } from '../../../http/types.ts';
import { commentSwitchRoute } from './comment-switch-route.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function hideInboxComment(api: Api): void {
  commentSwitchRoute(api, {
    method: 'post',
    path: '/inbox/comments/:commentId/hide',
    operationId: 'hideInboxComment',
    summary: `Hide a comment from everyone but its author (${platformsOffering('commentHider')}); accountId in the body or the query`,
    write: (commentId) => ({ kind: 'hide', commentId, hidden: true }),
  });
}
