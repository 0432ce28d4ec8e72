// youtube (DESIGN "More platforms"; youtube.md): Google's web-server OAuth with offline access,
// the channel from channels.list?mine=true (several: a pending choice), refresh until Google
// revokes the grant, health with YouTube's own conditions (an unaudited API project's uploads
// stay private; a consent screen in "Testing" ends refresh tokens after 7 days), one video per
// post by resumable upload, its thumbnail, playlist and first comment, the quota counted per
// Pacific day, comments polled into the inbox, and the video's statistics.
import type { PlatformContext } from '../context.ts';
import type { PlatformDefinition } from '../definition.ts';
import type { PlatformAdapter } from '../types.ts';
import { youtubeApi, type YouTubeSettings } from './api.ts';
import { channelsOf, youtubeChoices, youtubeConnector, youtubeRefresher } from './connect.ts';
import { youtubeComments } from './comments.ts';
import { YOUTUBE_FEATURES } from './features.ts';
import { youtubeInsights } from './insights.ts';
import { youtubeMedia } from './media-rules.ts';
import { YouTubeData, YouTubeOptions } from './options.ts';
import { youtubePublisher } from './publish.ts';
import { youtubePostEditor, youtubePostRemover } from './published.ts';
import { validateYouTube } from './validate.ts';

export const AUDIT_NOTE =
  "YouTube keeps every video uploaded through an API project it has not audited private, whatever privacyStatus says: request YouTube's API compliance audit for the Google Cloud project, then set YOUTUBE_AUDITED=1.";
export const TESTING_NOTE =
  'While the Google Cloud project\'s OAuth consent screen is in "Testing" status, Google ends refresh tokens after 7 days and the account must be connected again: publish the app (status "In production") to keep them.';

export function youtubeAdapter(ctx: PlatformContext, settings: YouTubeSettings): PlatformAdapter<'youtube'> {
  const api = youtubeApi(ctx.http, settings, ctx.counters);
  const comments = youtubeComments(api);
  const insights = youtubeInsights(api);
  return {
    platform: 'youtube',
    connectors: [youtubeConnector(ctx, api)],
    choices: youtubeChoices(api),
    refresher: youtubeRefresher(ctx),
    health: {
      async inspect(credentials, now) {
        // A 401 authError here is `auth`: the account needs reconnecting.
        const channels = await channelsOf(api, credentials.accessToken, now);
        const notes = [TESTING_NOTE, ...(settings.audited ? [] : [AUDIT_NOTE])];
        const own = channels.some((c) => c.id === credentials.platformUserId);
        if (!own) notes.unshift('This Google token no longer lists the connected channel: connect the account again, choosing that channel in the account chooser.');
        return { valid: own, expiresAt: credentials.expiresAt, scopes: credentials.scopes, refreshable: credentials.refreshToken !== null, notes };
      },
      features: () => YOUTUBE_FEATURES,
    },
    // The project's upload bucket, as this process counted it today (Pacific): POST /posts answers 429 when it is spent.
    limits: {
      publishingLimit: async () => ({ used: await api.quota.uploads(Date.now()), allowed: settings.dailyUploads, windowHours: 24 }),
    },
    publisher: youtubePublisher(api, ctx.media),
    editor: youtubePostEditor(api),
    remover: youtubePostRemover(api),
    commentReader: comments.reader,
    commentWriter: comments.writer,
    commentThreads: comments.threads,
    commentHider: comments.hider,
    commentRemover: comments.remover,
    postInsights: insights.post,
    accountInsights: insights.account,
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    youtube: true;
  }
}

/** Everything the service knows about youtube (listed in ../registry.ts). */
export const youtubePlatform: PlatformDefinition<'youtube', YouTubeSettings> = {
  name: 'youtube',
  displayName: 'YouTube',
  apps: [{ name: 'google', idVar: 'GOOGLE_CLIENT_ID', secretVar: 'GOOGLE_CLIENT_SECRET', sandbox: { clientId: 'sandbox-google-client', clientSecret: 'sandbox-google-secret' } }],
  settings: (read) => ({
    dailyUploads: read.integer('YOUTUBE_DAILY_UPLOADS', 100, 0, 1_000_000),
    dailyUnits: read.integer('YOUTUBE_DAILY_UNITS', 10_000, 0, 1_000_000_000),
    uploadUnits: read.integer('YOUTUBE_UPLOAD_UNITS', 1, 1, 1_000_000),
    audited: read.flag('YOUTUBE_AUDITED', false),
  }),
  adapter: youtubeAdapter,
  // No comment webhooks: comments are polled (1 unit a page).
  pollComments: true,
  publishing: { data: YouTubeData, options: YouTubeOptions, validate: validateYouTube, media: youtubeMedia },
  // Thursday to Saturday, 18 to 21 UTC (DESIGN "More platforms", Analytics).
  bestTime: [
    [3, 19, 100], [4, 19, 100], [5, 19, 98], [3, 20, 96], [4, 20, 96], [5, 20, 94],
    [3, 18, 90], [4, 18, 90], [5, 18, 88], [3, 21, 84], [4, 21, 84], [5, 21, 82],
  ],
};
