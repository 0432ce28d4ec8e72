// Page posts (platforms.md §3.1): creation through `/feed` (text, link, drafts, scheduled,
// multi-photo with attached_media), reads (the post node's fields), edits and deletes, and the
// `feed` webhook the Page's subscribed apps get for each (§8.3). A scheduled post counts as
// published once the sandbox clock passes its time; a video-backed post once its video is ready.
import type { FacebookPage } from '../meta/people.ts';
import type { SandboxState } from '../core/state.ts';
import { emitChange } from '../meta/events.ts';
import { graphTime } from '../meta/store.ts';
import type { FbPost, FbPostKind } from './store.ts';
import { videoStatus } from './video-status.ts';

export const MESSAGE_LIMIT = 63_206;

export function isPublished(state: SandboxState, post: FbPost): boolean {
  const due = post.published || (post.scheduledAt !== null && state.clock.now() >= post.scheduledAt);
  if (!due) return false;
  const video = post.videoId ? state.meta.fbVideos.get(post.videoId) : undefined;
  return !video || videoStatus(state, video).video_status === 'ready';
}

export function createPost(state: SandboxState, page: FacebookPage, input: Partial<FbPost> & { kind: FbPostKind }): FbPost {
  const now = state.clock.now();
  const post: FbPost = {
    id: `${page.id}_${state.ids.numeric('fb-post', '1', 16)}`,
    pageId: page.id,
    message: null,
    link: null,
    published: true,
    scheduledAt: null,
    createdAt: now,
    updatedAt: now,
    photoIds: [],
    videoId: null,
    hidden: false,
    reactions: [],
    likedByPage: false,
    ...input,
  };
  state.meta.fbPosts.set(post.id, post);
  if (post.published) feedEvent(state, post, 'add');
  return post;
}

const ITEM: Record<FbPostKind, string> = { status: 'status', link: 'share', photo: 'photo', album: 'photo', video: 'video', reel: 'video', story: 'status' };

/** The `feed` change of a post (§8.3): item status/share/photo/video, verb add/edited/remove. */
export function feedEvent(state: SandboxState, post: FbPost, verb: 'add' | 'edited' | 'remove'): void {
  const page = state.people.pages.get(post.pageId);
  const value: Record<string, unknown> = {
    from: { id: post.pageId, name: page?.name ?? '' },
    item: ITEM[post.kind],
    post_id: post.id,
    verb,
    created_time: Math.floor(post.createdAt / 1000),
    published: isPublished(state, post) ? 1 : 0,
  };
  if (post.message !== null) value.message = post.message;
  if (post.link) value.link = post.link;
  if (post.photoIds.length) value.photo_id = post.photoIds[0];
  if (post.videoId) value.video_id = post.videoId;
  emitChange(state, 'page', post.pageId, 'feed', value);
}

const STATUS_TYPE: Record<FbPostKind, string> = {
  status: 'mobile_status_update',
  link: 'shared_story',
  photo: 'added_photos',
  album: 'added_photos',
  video: 'added_video',
  reel: 'added_video',
  story: 'added_photos',
};

export function postGetters(state: SandboxState, post: FbPost) {
  const page = state.people.pages.get(post.pageId);
  const comments = () => [...state.meta.fbComments.values()].filter((c) => c.postId === post.id && c.parentId === null);
  const attachments = () => {
    if (post.photoIds.length) {
      const media = post.photoIds.map((id) => ({ media: { image: { src: state.meta.fbPhotos.get(id)?.url } }, target: { id }, type: 'photo' }));
      return { data: media.length > 1 ? [{ type: 'album', subattachments: { data: media } }] : media };
    }
    if (post.videoId) return { data: [{ type: post.kind === 'reel' ? 'video_inline' : 'video_autoplay', target: { id: post.videoId } }] };
    if (post.link) return { data: [{ type: 'share', url: post.link, unshimmed_url: post.link }] };
    return undefined;
  };
  return {
    id: () => post.id,
    message: () => post.message ?? undefined,
    created_time: () => graphTime(post.createdAt),
    updated_time: () => graphTime(post.updatedAt),
    from: () => ({ name: page?.name, id: post.pageId }),
    permalink_url: () => `https://www.facebook.com/${post.pageId}/posts/${post.id.split('_')[1] ?? post.id}`,
    is_published: () => isPublished(state, post),
    is_hidden: () => post.hidden,
    scheduled_publish_time: () => (post.scheduledAt !== null ? Math.floor(post.scheduledAt / 1000) : undefined),
    status_type: () => STATUS_TYPE[post.kind],
    full_picture: () => (post.photoIds[0] ? state.meta.fbPhotos.get(post.photoIds[0])?.url : undefined),
    attachments,
    shares: () => ({ count: 0 }),
    reactions: () => ({ data: post.reactions.map((r) => ({ id: r.personId, type: r.type.toUpperCase() })), summary: { total_count: post.reactions.length, viewer_reaction: post.likedByPage ? 'LIKE' : 'NONE' } }),
    likes: () => ({ data: [], summary: { total_count: post.reactions.filter((r) => r.type === 'like').length + (post.likedByPage ? 1 : 0), can_like: true, has_liked: post.likedByPage } }),
    comments: () => ({ data: comments().map((c) => ({ id: c.id, message: c.message, created_time: graphTime(c.createdAt) })), summary: { order: 'chronological', total_count: comments().length, can_comment: true } }),
  };
}
