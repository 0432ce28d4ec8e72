// bluesky (DESIGN "More platforms"; bluesky.md): accounts connect through the service's own page
// with an app password (no OAuth app: `apps` is empty), the session is refreshed with its
// refresh JWT, and posts are records the service writes into the account's repository at its
// PDS — each under a key chosen and saved first, so none is ever made twice.
import type { PlatformContext } from '../context.ts';
import type { PlatformDefinition } from '../definition.ts';
import type { PlatformAdapter } from '../types.ts';
import { blueskyPageConnector, blueskyRefresher, currentSession } from './connect.ts';
import { blueskyEngagement } from './engagement.ts';
import { blueskyMedia } from './media-rules.ts';
import { BlueskyData, BlueskyOptions } from './options.ts';
import { blueskyPublisher } from './publish.ts';
import { blueskyCommentsSwitch, blueskyPostRemover } from './published.ts';
import { validateBluesky } from './validate.ts';
import { xrpc } from './xrpc.ts';

export interface BlueskySettings {
  /** BLUESKY_ENTRYWAY: where handles are resolved to DIDs. */
  entryway: string;
}

export function blueskyAdapter(ctx: PlatformContext, settings: BlueskySettings): PlatformAdapter<'bluesky'> {
  const api = xrpc(ctx.http, [settings.entryway]);
  return {
    platform: 'bluesky',
    connectors: [],
    pageConnector: blueskyPageConnector(api, settings.entryway),
    refresher: blueskyRefresher(api),
    health: {
      async inspect(credentials, now) {
        // An ended session answers 401 (`auth`): the account needs reconnecting.
        // The handle can change: the stored username follows the session's.
        const session = await currentSession(api, credentials, now);
        const notes = session.active ? [] : ['Bluesky reports the account as not active (deactivated or suspended).'];
        return { valid: session.active, expiresAt: credentials.expiresAt, scopes: credentials.scopes, refreshable: credentials.refreshToken !== null, notes, username: session.handle };
      },
      // App passwords carry every right a post needs; there are no scopes to ask for.
      features: () => ({}),
    },
    publisher: blueskyPublisher(api, ctx.media, settings.entryway),
    remover: blueskyPostRemover(api),
    commentsSwitch: blueskyCommentsSwitch(api),
    ...blueskyEngagement(api, settings.entryway),
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    bluesky: true;
  }
}

/** Everything the service knows about bluesky (listed in ../registry.ts). */
export const blueskyPlatform: PlatformDefinition<'bluesky', BlueskySettings> = {
  name: 'bluesky',
  displayName: 'Bluesky',
  apps: [],
  // An http(s) origin; anything else stops the start, naming the variable.
  settings: (read) => ({ entryway: read.origin('BLUESKY_ENTRYWAY', 'https://bsky.social') }),
  adapter: blueskyAdapter,
  // No webhooks: replies are polled.
  pollComments: true,
  // Mentions and quotes are notifications, polled too.
  pollMentions: true,
  publishing: { data: BlueskyData, options: BlueskyOptions, validate: validateBluesky, media: blueskyMedia },
  // Weekdays 13–16 UTC (DESIGN "Analytics", best-time defaults).
  bestTime: [
    [0, 14, 100], [1, 14, 100], [2, 14, 100], [3, 14, 100], [4, 14, 96],
    [0, 13, 92], [1, 13, 92], [2, 13, 92], [3, 13, 92], [4, 13, 88],
    [0, 15, 90], [1, 15, 90], [2, 15, 90], [3, 15, 90], [4, 15, 86],
    [0, 16, 80], [1, 16, 80], [2, 16, 80], [3, 16, 80], [4, 16, 76],
  ],
};
