// The scopes YouTube's features need (youtube.md §2): uploads, then managing videos, comments,
// playlists and thumbnails, then the Analytics API. `…/auth/youtube` is the broad alternative
// to the first two.
const SCOPE = 'https://www.googleapis.com/auth/';

export const YOUTUBE_FEATURES: Record<string, string[]> = {
  publish: [`${SCOPE}youtube.upload`],
  manage: [`${SCOPE}youtube.force-ssl`],
  analytics: [`${SCOPE}yt-analytics.readonly`],
};

export const YOUTUBE_SCOPES = [`${SCOPE}youtube.upload`, `${SCOPE}youtube.force-ssl`, `${SCOPE}yt-analytics.readonly`];
