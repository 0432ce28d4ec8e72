// A published video (DESIGN "More platforms", Published posts): unpublish is videos.delete (a video
// already gone counts as deleted); an edit replaces the description through videos.update, which
// writes the whole snippet, so the snippet is read first and written back with the new text
// (title and categoryId are required again).
import { PlatformError } from '../errors.ts';
import { list, obj } from '../json.ts';
import type { PostEditor, PostRemover } from '../types.ts';
import { DATA_API, type YouTubeApi } from './api.ts';
import { descriptionProblem } from './validate.ts';

export function youtubePostRemover(api: YouTubeApi): PostRemover {
  return {
    async unpublish(account, videoId) {
      try {
        await api.call({ method: 'DELETE', url: `${DATA_API}/videos`, query: { id: videoId }, token: account.accessToken, units: 50 });
      } catch (error) {
        if (error instanceof PlatformError && error.details.code === 'videoNotFound') return;
        throw error;
      }
    },
  };
}

export function youtubePostEditor(api: YouTubeApi): PostEditor {
  return {
    async edit(account, videoId, content) {
      // The rules of a description (youtube.md §5), checked before a call that costs 51 units and answers without naming the field.
      const problem = descriptionProblem(content);
      if (problem) throw new PlatformError('invalid', `content: ${problem}`, { platform: 'youtube' });
      const token = account.accessToken;
      const found = await api.json({ url: `${DATA_API}/videos`, query: { part: 'snippet', id: videoId }, token, units: 1 });
      const video = obj(list(found.items)[0]);
      if (!video.id) throw new PlatformError('invalid', `YouTube has no video ${videoId} of this channel`, { platform: 'youtube', code: 'videoNotFound' });
      const snippet = obj(video.snippet);
      const written = {
        title: snippet.title,
        categoryId: snippet.categoryId,
        description: content,
        ...(Array.isArray(snippet.tags) ? { tags: snippet.tags } : {}),
        ...(typeof snippet.defaultLanguage === 'string' ? { defaultLanguage: snippet.defaultLanguage } : {}),
      };
      await api.call({ method: 'PUT', url: `${DATA_API}/videos`, query: { part: 'snippet' }, json: { id: videoId, snippet: written }, token, units: 50 });
    },
  };
}
