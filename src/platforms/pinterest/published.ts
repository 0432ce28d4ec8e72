// A live Pin (DESIGN "More platforms", Published posts; pinterest.md §5): deleting it
// (DELETE /v5/pins/{id}, 204) and editing its description (PATCH /v5/pins/{id}). Comments cannot
// be switched (Pinterest has no API for comments on organic Pins).
import { PlatformError } from '../errors.ts';
import type { PostEditor, PostRemover } from '../types.ts';
import { pinterestBody, type PinterestApi } from './api.ts';
import { PINTEREST_DESCRIPTION_MAX } from './options.ts';

const pinPath = (id: string) => `/pins/${encodeURIComponent(id)}`;

export function pinterestPostRemover(api: PinterestApi): PostRemover {
  return {
    async unpublish(account, pinId) {
      pinterestBody(await api.call(account.accessToken, { method: 'DELETE', path: pinPath(pinId) }));
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
