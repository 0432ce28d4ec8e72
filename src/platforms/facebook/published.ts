// A live Page post (platforms.md §3.1): `POST /{post-id}` with message edits it, `DELETE
// /{post-id}` removes it; both with the Page token, both answer {success:true}.
import type { PlatformHttp } from '../http.ts';
import { FACEBOOK_GRAPH } from '../meta/graph.ts';
import { graphCaller } from '../meta/publish-steps.ts';
import type { PostEditor, PostRemover } from '../types.ts';

export function facebookPostEditor(http: PlatformHttp): PostEditor {
  return {
    async edit(account, postId, content) {
      await graphCaller(http, 'facebook', FACEBOOK_GRAPH, account.accessToken)('POST', `/${postId}`, { message: content });
    },
  };
}

export function facebookPostRemover(http: PlatformHttp): PostRemover {
  return {
    async unpublish(account, postId) {
      await graphCaller(http, 'facebook', FACEBOOK_GRAPH, account.accessToken)('DELETE', `/${postId}`);
    },
  };
}
