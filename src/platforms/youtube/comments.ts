// YouTube comments (DESIGN "More platforms", Comments and inbox; youtube.md §6): a video's
// top-level comments from commentThreads.list (newest first, YouTube's page tokens), each followed
// by its replies from comments.list; a reply is comments.insert under the top-level comment (a
// reply to a reply goes under its thread, as YouTube's own app does); a comment on the video is
// commentThreads.insert; hiding is setModerationStatus rejected (showing again: published); the
// channel's own comments can be deleted. There is no API to like a comment.
import { list, numberOf, obj, str, text, type Json } from '../json.ts';
import type { AccountCredentials, CommentHider, CommentReader, CommentRemover, CommentThreads, CommentWriter, PlatformComment } from '../types.ts';
import { DATA_API, type YouTubeApi } from './api.ts';

function commentOf(raw: unknown, videoId: string, channelId: string): PlatformComment {
  const comment = obj(raw);
  const snippet = obj(comment.snippet);
  const at = Date.parse(text(snippet.publishedAt));
  const author = text(obj(snippet.authorChannelId).value);
  return {
    id: text(comment.id),
    platform: 'youtube',
    platformPostId: videoId,
    text: text(snippet.textOriginal) || text(snippet.textDisplay),
    username: str(snippet.authorDisplayName),
    parentId: str(snippet.parentId),
    createdAt: Number.isNaN(at) ? null : at,
    hidden: text(snippet.moderationStatus) === 'rejected',
    likeCount: numberOf(snippet.likeCount) ?? 0,
    isOwn: author === channelId,
  };
}

export function youtubeComments(api: YouTubeApi): { reader: CommentReader; writer: CommentWriter; threads: CommentThreads; hider: CommentHider; remover: CommentRemover } {
  const replies = async (account: AccountCredentials, parentId: string, videoId: string): Promise<PlatformComment[]> => {
    const found: PlatformComment[] = [];
    let pageToken: string | undefined;
    do {
      const body: Json = await api.json({ url: `${DATA_API}/comments`, query: { part: 'snippet', parentId, maxResults: 100, ...(pageToken ? { pageToken } : {}) }, token: account.accessToken, units: 1 });
      found.push(...list(body.items).map((c) => commentOf(c, videoId, account.platformUserId)));
      pageToken = str(body.nextPageToken) ?? undefined;
    } while (pageToken);
    return found;
  };
  return {
    reader: {
      async list(account, videoId, page) {
        const body = await api.json({
          url: `${DATA_API}/commentThreads`,
          query: { part: 'snippet,replies', videoId, order: 'time', maxResults: Math.min(100, Math.max(1, page.limit)), ...(page.after ? { pageToken: page.after } : {}) },
          token: account.accessToken,
          units: 1,
        });
        const comments: PlatformComment[] = [];
        for (const thread of list(body.items).map(obj)) {
          const snippet = obj(thread.snippet);
          const top = commentOf(snippet.topLevelComment, videoId, account.platformUserId);
          comments.push(top);
          if ((numberOf(snippet.totalReplyCount) ?? 0) > 0) comments.push(...(await replies(account, top.id, videoId)));
        }
        return { comments, after: str(body.nextPageToken) };
      },
    },
    writer: {
      async reply(account, commentId, textValue) {
        // YouTube keeps one level of replies: the thread's top-level comment is the parent.
        const parentId = commentId.includes('.') ? (commentId.split('.')[0] ?? commentId) : commentId;
        const body = await api.json({ method: 'POST', url: `${DATA_API}/comments`, query: { part: 'snippet' }, json: { snippet: { parentId, textOriginal: textValue } }, token: account.accessToken, units: 50 });
        return { id: text(body.id) };
      },
      async comment(account, videoId, textValue) {
        const body = await api.json({ method: 'POST', url: `${DATA_API}/commentThreads`, query: { part: 'snippet' }, json: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: textValue } } } }, token: account.accessToken, units: 50 });
        return { id: text(obj(obj(body.snippet).topLevelComment).id) || text(body.id) };
      },
    },
    threads: {
      async parentOf(account, commentId) {
        const body = await api.json({ url: `${DATA_API}/comments`, query: { part: 'snippet', id: commentId }, token: account.accessToken, units: 1 });
        return str(obj(obj(list(body.items)[0]).snippet).parentId);
      },
    },
    hider: {
      async setHidden(account, commentId, hidden) {
        await api.call({ method: 'POST', url: `${DATA_API}/comments/setModerationStatus`, query: { id: commentId, moderationStatus: hidden ? 'rejected' : 'published' }, token: account.accessToken, units: 50 });
      },
    },
    remover: {
      async remove(account, commentId) {
        await api.call({ method: 'DELETE', url: `${DATA_API}/comments`, query: { id: commentId }, token: account.accessToken, units: 50 });
      },
    },
  };
}
