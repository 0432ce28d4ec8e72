import type { Api } from '../../../http/types.ts';
import { commentSwitchRoute } from './comment-switch-route.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function unlikeInboxComment(api: Api): void {
  commentSwitchRoute(api, {
    method: 'delete',
    path: '/inbox/comments/:commentId/like',
    operationId: 'unlikeInboxComment',
    summary: `Take the like back (${platformsOffering('commentLiker')}); accountId in the body or the query`,
    write: (commentId) => ({ kind: 'like', commentId, liked: false }),
  });
}
