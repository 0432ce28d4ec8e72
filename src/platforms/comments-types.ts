// The capabilities that read, answer and moderate comments (contract "Comments and inbox",
// DESIGN §2), one small interface per operation family. A platform offers only the families it
// has (reply on reddit, instagram, facebook, threads; lists on those four; hide on instagram,
// facebook, threads; like on facebook; delete on instagram, facebook; mentions on instagram);
// the routes answer 400 not_supported for a missing one without calling the platform.
// Re-exported by types.ts.
//
// Like the publishers, these are pure platform knowledge: they make the platform's calls and
// throw PlatformError from the platform's error table; no database, no clock, no retries.
// Comment writes that create something (reply, top-level comment) are single calls made once:
// they are not retried by a job, so the caller decides whether a retry of its own is safe.
import type { AccountCredentials, Platform } from './types.ts';

/** A comment as the platform has it; the service adds accountId and postId. */
export interface PlatformComment {
  /** The platform's comment id (reddit: the fullname `t1_…`; threads: the reply's media id). */
  id: string;
  platform: Platform;
  /** The post the comment is under, as the platform names it (reddit: `t3_…`). */
  platformPostId: string;
  text: string;
  /** Who wrote it (facebook: the commenter's `from.name`); null when the platform hides it (a deleted reddit author). */
  username: string | null;
  /** The comment replied to; null for a comment on the post itself. */
  parentId: string | null;
  /** Epoch milliseconds; null when the platform gave no readable time. */
  createdAt: number | null;
  hidden: boolean;
  likeCount: number;
  /** Written by the connected account itself. */
  isOwn: boolean;
}

export interface CommentPageRequest {
  /** Top-level comments per page (replies come with their parent and are not counted). */
  limit: number;
  /** The platform's cursor from the previous page; null for the first page. */
  after: string | null;
}

export interface CommentPage {
  /** Top-level comments in the platform's order, each followed by its replies. */
  comments: PlatformComment[];
  /** The cursor of the next page; null on the last one. */
  after: string | null;
  /**
   * What the platform left out, without an error of its own, because the account did not grant
   * a permission (facebook without pages_read_user_content lists the Page's own comments only).
   */
  withheld?: Array<{ permission: string; what: string }>;
}

/** Lists the comments of a live post, with the platform's paging. */
export interface CommentReader {
  list(account: AccountCredentials, platformPostId: string, page: CommentPageRequest): Promise<CommentPage>;
}

/** What a comment write created. */
export interface CreatedComment {
  id: string;
}

/** Writes comments as the account: a reply under a comment, or a comment on a post. */
export interface CommentWriter {
  reply(account: AccountCredentials, commentId: string, text: string): Promise<CreatedComment>;
  comment(account: AccountCredentials, platformPostId: string, text: string): Promise<CreatedComment>;
}

/**
 * Platforms that keep one level of replies (instagram): a reply hangs under a top-level comment,
 * so a reply to a reply is made on its top-level comment, as the platform's own app does.
 */
export interface CommentThreads {
  /** The comment's parent as the platform has it; null for a top-level comment. */
  parentOf(account: AccountCredentials, commentId: string): Promise<string | null>;
}

/** Hides a comment from everyone but its author (and shows it again). */
export interface CommentHider {
  setHidden(account: AccountCredentials, commentId: string, hidden: boolean): Promise<void>;
}

/** Likes a comment as the account (and takes the like back). */
export interface CommentLiker {
  setLiked(account: AccountCredentials, commentId: string, liked: boolean): Promise<void>;
}

export interface CommentRemover {
  remove(account: AccountCredentials, commentId: string): Promise<void>;
}

/** A post of someone else in which the account was tagged. */
export interface PlatformMention {
  /** The platform's media id. */
  mediaId: string;
  platform: Platform;
  caption: string | null;
  mediaType: string | null;
  permalink: string | null;
  /** Who posted it. */
  username: string | null;
  createdAt: number | null;
}

/** The comment or caption that mentioned the account, read from the ids its webhook carries. */
export interface MentionedContent {
  text: string;
  /** Who wrote it; null when the platform does not say. */
  username: string | null;
}

/** What a polled platform's mentions since a mark answer (MentionReader.mentionsSince). */
export interface MentionsSince {
  /** Newer than the mark, newest first. */
  mentions: PlatformMention[];
  /** Where the next read starts (the newest mention seen); the given mark when none was newer. */
  mark: string | null;
  /** More were newer than the mark than the read's limit: the oldest of them were not read. */
  truncated: boolean;
}

export interface MentionReader {
  /** The newest `limit` media the account was tagged in. */
  mentions(account: AccountCredentials, limit: number): Promise<PlatformMention[]>;
  /**
   * For a platform whose mentions are polled (a definition's pollMentions): every mention newer
   * than `from.mark` (an earlier answer's, opaque to the caller) or, before there is one, made
   * since `from.time`; paged, up to `limit`. (A poll of the newest page alone would lose what
   * came beyond it between two ticks.)
   */
  mentionsSince?(account: AccountCredentials, from: { mark: string | null; time: number }, limit: number): Promise<MentionsSince>;
  /** The mentioning comment (commentId) or, without one, the media whose caption mentions the account. */
  mentioned(account: AccountCredentials, ref: { mediaId: string; commentId: string | null }): Promise<MentionedContent>;
}
