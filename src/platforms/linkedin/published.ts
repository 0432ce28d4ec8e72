// A live LinkedIn post (DESIGN "More platforms", Published posts): unpublish is
// `DELETE /rest/posts/{urn}` (204, also when already gone); edit replaces the commentary with a
// PARTIAL_UPDATE (media cannot change), escaped like the post's.
import type { PostEditor, PostRemover } from '../types.ts';
import { urnPath, type LinkedInApi } from './api.ts';
import { escapeLittleText } from './little-text.ts';

export function linkedinPostRemover(api: LinkedInApi): PostRemover {
  return {
    async unpublish(account, urn) {
      await api.rest({ method: 'DELETE', path: `/posts/${urnPath(urn)}`, token: account.accessToken });
    },
  };
}

export function linkedinPostEditor(api: LinkedInApi): PostEditor {
  return {
    async edit(account, urn, content) {
      await api.rest({
        method: 'POST',
        path: `/posts/${urnPath(urn)}`,
        token: account.accessToken,
        headers: { 'x-restli-method': 'PARTIAL_UPDATE' },
        json: { patch: { $set: { commentary: escapeLittleText(content) } } },
      });
    },
  };
}
