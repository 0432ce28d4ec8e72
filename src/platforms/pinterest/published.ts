// A live Pin (DESIGN "More platforms", Published posts; pinterest.md §5): deleting it
// (DELETE /v5/pins/{id}, 204; one already gone counts as deleted) and editing its description
// (PATCH /v5/pins/{id}). Comments cannot be switched (Pinterest has no API for comments on
// organic Pins).
import { PlatformError } from '../errors.ts';
import type { PostEditor, PostRemover } from '../types.ts';
import { pinterestBody, type PinterestApi } from './api.ts';
import { PINTEREST_DESCRIPTION_MAX } from './options.ts';

const pinPath = (id: string) => `/pins/${encodeURIComponent(id)}`;

export function pinterestPostRemover(api: PinterestApi): PostRemover {
  return {
    async unpublish(account, pinId) {
      const response = await api.call(account.accessToken, { method: 'DELETE', path: pinPath(pinId) });
      // A Pin already gone (a delete sent again after its answer was lost) is what was asked: the
      // target's Pin is the account's own, so a 404 cannot be another user's.
      if (response.status === 404) return;
      pinterestBody(response);
    },
  };
}

export function pinterestPostEditor(api: PinterestApi): PostEditor {
  return {
    async edit(account, pinId, content) {
      const length = [...content].length;
      if (length > PINTEREST_DESCRIPTION_MAX) throw new PlatformError('invalid', `content: ${length} characters, a Pin description has at most ${PINTEREST_DESCRIPTION_MAX}`, { platform: 'pinterest' });
      await api.json(account.accessToken, { method: 'PATCH', path: pinPath(pinId), json: { description: content } });
    },
  };
}
