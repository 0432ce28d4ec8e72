import type { Api } from '../../../http/types.ts';
import { commentSwitchRoute } from './comment-switch-route.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function likeInboxComment(api: Api): void {
  commentSwitchRoute(api, {
    method: 'post',
    path: '/inbox/comments/:commentId/like',
    operationId: 'likeInboxComment',
    summary: `Like a comment as the account (${platformsOffering('commentLiker')}); accountId in the body or the query`,
    write: (commentId) => ({ kind: 'like', commentId, liked: true }),
  });
}
