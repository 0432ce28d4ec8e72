// The posts module: its operations (drafts, scheduling, publishing, published-post changes), its
// resource schemas, and the delivery jobs (a scheduled post falling due, one step of a target).
import type { AppDeps } from '../../deps.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { postDeliverJob } from './delivery/deliver-job.ts';
import { postDispatchJob } from './delivery/dispatch-job.ts';
import { createPost } from './routes/create-post.ts';
import { deletePost } from './routes/delete-post.ts';
import { editPublishedPost } from './routes/edit-published-post.ts';
import { getPost } from './routes/get-post.ts';
import { listPosts } from './routes/list-posts.ts';
import { publishPost } from './routes/publish-post.ts';
import { unpublishPost } from './routes/unpublish-post.ts';
import { updateCommentsSettings } from './routes/update-comments-settings.ts';
import { updatePost } from './routes/update-post.ts';
import { ChangedTarget } from './routes/published-response.ts';
import { Post, PostTarget } from './schemas.ts';

export const postRoutes: RouteRegistrar[] = [listPosts, createPost, getPost, updatePost, deletePost, publishPost,
  editPublishedPost, unpublishPost, updateCommentsSettings];

export const postSchemas = [PostTarget, Post, ChangedTarget];

export function postJobs(deps: AppDeps) {
  return [postDispatchJob(deps), postDeliverJob(deps)];
}
