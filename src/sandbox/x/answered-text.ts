// A post's text as X's API answers it (platforms/x.md §11), which is not the text sent: every URL
// is a t.co link (the entity keeps the URL, a bare host given a scheme: `example.com` comes back
// as `http://example.com`), `&`, `<` and `>` come back as HTML entities, and a post with media
// ends in one more t.co link, to the first medium's page (`…/status/{id}/photo/1`), whose entity
// carries its media_key. A look-back that compares texts has to undo all of that.
import { createHash } from 'node:crypto';
import type { SandboxState } from '../core/state.ts';
import type { XPost } from './store.ts';

export interface AnsweredUrl {
  start: number;
  end: number;
  url: string;
  expanded_url: string;
  display_url: string;
  media_key?: string;
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The URL X keeps for a link found in the text: a bare host gets `http://`. */
export const withScheme = (url: string): string => (/^https?:\/\//i.test(url) ? url : `http://${url}`);

/** The t.co link of a post's media: the same on every read. */
const mediaLink = (postId: string): string => `https://t.co/${createHash('sha256').update(`media:${postId}`).digest('base64url').slice(0, 10)}`;

export function answeredText(state: SandboxState, post: XPost): { text: string; urls: AnsweredUrl[] } {
  const first = post.mediaIds.map((id) => state.x.media.get(id)).find((m) => m !== undefined);
  const author = state.people.xUsers.get(post.authorId);
  const links = post.urls.map((u) => ({ url: u.url, expanded: u.expandedUrl, mediaKey: undefined as string | undefined }));
  let text = escapeHtml(post.text);
  if (first && author) {
    const url = mediaLink(post.id);
    text = text ? `${text} ${url}` : url;
    links.push({ url, expanded: `https://x.com/${author.username}/status/${post.id}/${first.category === 'tweet_video' ? 'video' : 'photo'}/1`, mediaKey: first.mediaKey });
  }
  let from = 0;
  const urls = links.map((link) => {
    const at = text.indexOf(link.url, from);
    from = at + link.url.length;
    const start = [...text.slice(0, at)].length;
    const display = link.mediaKey ? `pic.x.com/${link.url.slice('https://t.co/'.length)}` : link.expanded.replace(/^https?:\/\//, '').slice(0, 26);
    return { start, end: start + link.url.length, url: link.url, expanded_url: link.expanded, display_url: display, ...(link.mediaKey ? { media_key: link.mediaKey } : {}) };
  });
  return { text, urls };
}
