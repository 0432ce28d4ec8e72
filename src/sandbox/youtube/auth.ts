// Every Data API and Analytics call: `Authorization: Bearer` with a Google access token of this
// platform (401 authError otherwise), a scope the method accepts (403 insufficientPermissions),
// and the project's daily quota, charged per call in units (youtube.md §6, §8): the project is the
// token's OAuth client, the day Pacific time. Over it, 403 quotaExceeded until Pacific midnight.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { googleError, insufficient, unauthorized } from './errors.ts';
import { channelsOfIdentity, type YouTubeChannel } from './people.ts';

export const SCOPE = {
  upload: 'https://www.googleapis.com/auth/youtube.upload',
  forceSsl: 'https://www.googleapis.com/auth/youtube.force-ssl',
  youtube: 'https://www.googleapis.com/auth/youtube',
  readonly: 'https://www.googleapis.com/auth/youtube.readonly',
  analytics: 'https://www.googleapis.com/auth/yt-analytics.readonly',
} as const;

/** Scopes that read or manage a channel (the broad ones include the narrow). */
export const MANAGE = [SCOPE.forceSsl, SCOPE.youtube];
export const READ = [SCOPE.forceSsl, SCOPE.youtube, SCOPE.readonly, SCOPE.upload];
export const UPLOAD = [SCOPE.upload, SCOPE.youtube, SCOPE.forceSsl];

export interface YouTubeCaller {
  token: TokenRecord;
  /** The identity's channels (mine=true); the first is the one calls act as. */
  channels: YouTubeChannel[];
  channel: YouTubeChannel | null;
}

/** The Pacific calendar day of a time, YYYY-MM-DD: quotas reset at midnight Pacific. */
export function pacificDay(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

export function youtubeAuth(ctx: RouteContext, scopes: readonly string[]): YouTubeCaller {
  const value = /^Bearer\s+(.+)$/i.exec(ctx.request.headers.authorization ?? '')?.[1]?.trim();
  const token = value ? ctx.state.token(value) : undefined;
  if (!token || token.platform !== 'youtube' || token.type !== 'user' || token.revoked || ctx.state.isExpired(token)) throw unauthorized();
  if (scopes.length && !scopes.some((s) => token.scopes.includes(s))) throw insufficient();
  const channels = channelsOfIdentity(ctx.state, token.subjectId);
  return { token, channels, channel: channels[0] ?? null };
}

/** The channel a write acts as: the identity must have one (403 otherwise, as YouTube answers). */
export function actingChannel(caller: YouTubeCaller): YouTubeChannel {
  if (!caller.channel) throw googleError(403, 'youtubeSignupRequired', 'The user has no YouTube channel.');
  return caller.channel;
}

function usage(state: SandboxState, clientId: string): { units: number; uploads: number } {
  const key = `${clientId}:${pacificDay(state.clock.now())}`;
  let used = state.youtube.quota.get(key);
  if (!used) {
    used = { units: 0, uploads: 0 };
    state.youtube.quota.set(key, used);
  }
  return used;
}

const exceeded = () =>
  googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', 'youtube.quota');

/** Charges a call's units to the project; 403 quotaExceeded when the day's units are spent. */
export function charge(ctx: RouteContext, caller: YouTubeCaller, units: number): void {
  const used = usage(ctx.state, caller.token.clientId);
  if (used.units + units > ctx.state.settings.youtube.quota) throw exceeded();
  used.units += units;
}

/** Charges a videos.insert: the uploads bucket, and the units an upload costs under the older scheme (uploadUnits > 1). */
export function chargeUpload(ctx: RouteContext, caller: YouTubeCaller): void {
  const settings = ctx.state.settings.youtube;
  const used = usage(ctx.state, caller.token.clientId);
  const units = settings.uploadUnits > 1 ? settings.uploadUnits : 0;
  if (used.uploads + 1 > settings.uploads || used.units + units > settings.quota) throw exceeded();
  used.uploads += 1;
  used.units += units;
}
