// The comments module: comment and mention operations read and written live on the platforms
// (contract "Comments and inbox"). It has no jobs: inbound comments are the inbox module's.
import type { RouteRegistrar } from '../../http/routes.ts';
import { createInboxComment } from './routes/create-inbox-comment.ts';
import { deleteInboxComment } from './routes/delete-inbox-comment.ts';
import { hideInboxComment } from './routes/hide-inbox-comment.ts';
import { likeInboxComment } from './routes/like-inbox-comment.ts';
import { listAccountMentions } from './routes/list-account-mentions.ts';
import { listInboxComments } from './routes/list-inbox-comments.ts';
import { listPostComments } from './routes/list-post-comments.ts';
import { replyToComment } from './routes/reply-to-comment.ts';
import { replyToInboxComment } from './routes/reply-to-inbox-comment.ts';
import { unhideInboxComment } from './routes/unhide-inbox-comment.ts';
import { unlikeInboxComment } from './routes/unlike-inbox-comment.ts';
import { Comment, Mention, Replied } from './schemas.ts';

export const commentRoutes: RouteRegistrar[] = [listPostComments, replyToComment, listInboxComments, createInboxComment, replyToInboxComment,
  hideInboxComment, unhideInboxComment, likeInboxComment, unlikeInboxComment, deleteInboxComment, listAccountMentions];

export const commentSchemas = [Comment, Mention, Replied];
