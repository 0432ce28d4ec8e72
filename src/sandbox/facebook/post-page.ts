// The Page post a Facebook permalink names, as the sandbox shows it (core/post-page.ts): posts at
// /{page-id}/posts/{n} (the post id is {page-id}_{n}), videos at /{page-id}/videos/{id} and
// Reels at /reel/{id}, the relative permalink_url a video node gives (platforms.md §3.1).
import type { Host, RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { sendPostPage, type PostView } from '../core/post-page.ts';
import { isPublished } from './posts.ts';
import type { FbPost, FbVideo } from './store.ts';

function pageName(state: SandboxState, pageId: string): string {
  return state.people.pages.get(pageId)?.name ?? pageId;
}

function postView(state: SandboxState, post: FbPost): PostView {
  const video = post.videoId ? state.meta.fbVideos.get(post.videoId) : undefined;
  return {
    platform: 'Facebook',
    author: pageName(state, post.pageId),
    text: post.message,
    createdAt: post.createdAt,
    media: [...post.photoIds.map((id) => ({ kind: 'image' as const, url: state.meta.fbPhotos.get(id)?.url ?? null })), ...(video ? [{ kind: 'video' as const, url: null }] : [])],
    link: post.link,
    notes: [`A ${post.kind} post`, ...(isPublished(state, post) ? [] : ['Not published: a draft, a scheduled post or a video still processing'])],
  };
}

function videoView(state: SandboxState, video: FbVideo): PostView {
  const post = video.postId ? state.meta.fbPosts.get(video.postId) : undefined;
  if (post) return postView(state, post);
  return {
    platform: 'Facebook',
    author: pageName(state, video.pageId),
    title: video.title,
    text: video.description,
    createdAt: video.createdAt,
    media: [{ kind: 'video', url: null }],
    notes: [video.flow === 'reel' ? 'A Reel' : 'A video', ...(video.publishStatus === 'published' ? [] : ['Not published'])],
  };
}

const video = (ctx: RouteContext, id: string | undefined, pageId?: string): unknown => {
  const found = id ? ctx.state.meta.fbVideos.get(id) : undefined;
  return sendPostPage(ctx, found && (pageId === undefined || found.pageId === pageId) ? videoView(ctx.state, found) : null);
};

export function registerFacebookPostPages(host: Host): void {
  host.get('/reel/:id', (ctx) => video(ctx, ctx.params.id));
  host.get('/:pageId/videos/:id', (ctx) => video(ctx, ctx.params.id, ctx.params.pageId));
  host.get('/:pageId/posts/:n', (ctx) => {
    const post = ctx.state.meta.fbPosts.get(`${ctx.params.pageId ?? ''}_${ctx.params.n ?? ''}`);
    return sendPostPage(ctx, post ? postView(ctx.state, post) : null);
  });
}
