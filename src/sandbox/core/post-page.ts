// The sandbox's own page of a post: what a post's url (its permalink) opens. Each platform's web
// host serves it at the path of its real permalink (www.facebook.com/{page}/posts/{n},
// www.instagram.com/p/{shortcode}, www.threads.net/@{user}/post/{shortcode},
// www.tiktok.com/@{user}/video/{id}, www.reddit.com/r/{sub}/comments/{id}/{slug}), so a link
// the service rewrites onto the sandbox opens the post there. View only: text, media, author.
import type { RouteContext } from './router.ts';
import { escapeHtml, page, sendViewPage } from './html.ts';

export interface PostView {
  /** The platform's name, as the page's heading says it. */
  platform: string;
  author: string;
  title?: string | null | undefined;
  text: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  media: Array<{ kind: 'image' | 'video'; url: string | null }>;
  link?: string | null | undefined;
  /** Short facts: the kind of post, a draft, a privacy level. */
  notes?: string[] | undefined;
}

const isWebUrl = (url: string): boolean => /^https?:\/\//i.test(url);

function mediaHtml(item: PostView['media'][number]): string {
  if (!item.url || !isWebUrl(item.url)) return `<p class="note">(${item.kind})</p>`;
  const src = escapeHtml(item.url);
  return item.kind === 'video' ? `<video controls preload="none" src="${src}"></video>` : `<img alt="" src="${src}">`;
}

/** Answers the post's page, or a 404 page when the platform has no such post. */
export function sendPostPage(ctx: RouteContext, post: PostView | null): unknown {
  if (!post) {
    return sendViewPage(ctx.reply, 404, page('Not found (sandbox)', "<h1>This content isn't available</h1><p class=\"note\">The sandbox has no post at this address.</p>"));
  }
  const heading = `${post.platform} (sandbox)`;
  const body = [
    `<h1>${escapeHtml(heading)}</h1>`,
    `<p><strong>${escapeHtml(post.author)}</strong> <span class="note">${escapeHtml(new Date(post.createdAt).toISOString())}</span></p>`,
    post.title ? `<h2>${escapeHtml(post.title)}</h2>` : '',
    post.text ? `<p class="text">${escapeHtml(post.text)}</p>` : '',
    ...post.media.map(mediaHtml),
    post.link && isWebUrl(post.link) ? `<p><a rel="nofollow noopener" href="${escapeHtml(post.link)}">${escapeHtml(post.link)}</a></p>` : '',
    ...(post.notes ?? []).map((n) => `<p class="note">${escapeHtml(n)}</p>`),
  ].filter(Boolean);
  return sendViewPage(ctx.reply, 200, page(`${post.author} on ${heading}`, body.join('\n')));
}
