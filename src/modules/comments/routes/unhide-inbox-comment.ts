import type { Api } from '../../../http/types.ts';
import { commentSwitchRoute } from './comment-switch-route.ts';
import { platformsOffering } from '../../../platforms/registry.ts';

export function unhideInboxComment(api: Api): void {
  commentSwitchRoute(api, {
    method: 'delete',
    path: '/inbox/comments/:commentId/hide',
    operationId: 'unhideInboxComment',
    summary: `Show a hidden comment again (${platformsOffering('commentHider')}); accountId in the body or the query`,
    write: (commentId) => ({ kind: 'hide', commentId, hidden: false }),
  });
}
