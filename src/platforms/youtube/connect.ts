// Connecting YouTube (DESIGN "More platforms", Connect; youtube.md §2, §3): Google's web-server
// flow with offline access (`access_type=offline&prompt=consent&include_granted_scopes=true`), the
// code exchanged for an access token (about an hour) and a refresh token (valid until revoked,
// 6 months unused, or 7 days for an app in Google's "Testing" status), then the channel from
// `channels.list?mine=true`. Google's account chooser is where a person picks their channel or a
// Brand Account, so one consent normally yields one channel and it connects at once; several
// make a pending choice (options = channels), none is nothing_granted. Refresh gives no new
// refresh token: the stored one is kept.
import { requireApp, type PlatformContext } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { list, numberOf, obj, str, text, type Json } from '../json.ts';
import type { ChoiceResolver, ConnectedAccount, OAuthConnector, TokenRefresher, TokenSet } from '../types.ts';
import { DATA_API, GOOGLE_TOKEN, youtubeBody, type YouTubeApi } from './api.ts';
import { YOUTUBE_SCOPES } from './features.ts';

export interface Channel {
  id: string;
  title: string;
  customUrl: string | null;
  thumbnail: string | null;
  subscriberCount: number | null;
}

export function tokenFrom(body: Json, now: number, previous: { refreshToken: string | null; scopes: string[] } | null): TokenSet {
  const expiresIn = numberOf(body.expires_in);
  const scopes = text(body.scope).split(/\s+/).filter(Boolean);
  return {
    accessToken: text(body.access_token),
    refreshToken: str(body.refresh_token) ?? previous?.refreshToken ?? null,
    expiresAt: expiresIn !== null ? now + expiresIn * 1000 : null,
    scopes: scopes.length ? scopes : (previous?.scopes ?? []),
  };
}

/** The channels of a token (mine=true). */
export async function channelsOf(api: YouTubeApi, token: string, now?: number): Promise<Channel[]> {
  const body = await api.json({ url: `${DATA_API}/channels`, query: { part: 'id,snippet,statistics', mine: 'true' }, token, units: 1, ...(now !== undefined ? { now } : {}) });
  return list(body.items).map((raw) => {
    const item = obj(raw);
    const snippet = obj(item.snippet);
    const statistics = obj(item.statistics);
    const thumbnails = obj(snippet.thumbnails);
    return {
      id: text(item.id),
      title: text(snippet.title) || text(item.id),
      customUrl: str(snippet.customUrl),
      thumbnail: str(obj(thumbnails.high ?? thumbnails.medium ?? thumbnails.default).url),
      subscriberCount: statistics.hiddenSubscriberCount === true ? null : numberOf(Number(text(statistics.subscriberCount) || Number.NaN)),
    };
  });
}

function accountOf(channel: Channel, token: TokenSet): ConnectedAccount {
  return {
    profile: {
      platformUserId: channel.id,
      username: channel.customUrl,
      displayName: channel.title,
      avatarUrl: channel.thumbnail,
      metadata: { channelId: channel.id },
    },
    token,
  };
}

export function youtubeConnector(ctx: PlatformContext, api: YouTubeApi): OAuthConnector {
  return {
    flavour: 'youtube',
    authorizeUrl({ state, redirectUri }) {
      const app = requireApp(ctx.apps, 'google');
      const url = new URL('https://accounts.google.com/o/oauth2/v2/auth');
      url.search = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: YOUTUBE_SCOPES.join(' '),
        // A refresh token on every consent (prompt=consent), kept for offline work.
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
      }).toString();
      return ctx.http.browserUrl(url.toString());
    },
    async complete({ code, redirectUri, now }) {
      const app = requireApp(ctx.apps, 'google');
      const answer = youtubeBody(
        await ctx.http.send('youtube', { method: 'POST', url: GOOGLE_TOKEN, form: { code, client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: redirectUri, grant_type: 'authorization_code' } }),
      );
      const token = tokenFrom(answer, now, null);
      const channels = await channelsOf(api, token.accessToken, now);
      const [only] = channels;
      if (only && channels.length === 1) return { kind: 'account', account: accountOf(only, token) };
      // None: nothing_granted ("this Google account has no YouTube channel"); several: the person picks.
      return {
        kind: 'choices',
        userToken: token,
        options: channels.map((c) => ({ id: c.id, name: c.title, kind: 'channel', username: c.customUrl, pictureUrl: c.thumbnail })),
        nothing: 'This Google account has no YouTube channel: create one, or pick the Brand Account that has it in the account chooser, and connect again.',
      };
    },
  };
}

export function youtubeChoices(api: YouTubeApi): ChoiceResolver {
  return {
    async resolve({ userToken, token, optionIds, now }) {
      const channels = await channelsOf(api, userToken, now);
      return optionIds.map((id) => {
        const channel = channels.find((c) => c.id === id);
        if (!channel) throw new PlatformError('permission', `the Google account no longer has the channel ${id}`, { platform: 'youtube' });
        return accountOf(channel, { ...token, accessToken: userToken });
      });
    },
  };
}

export function youtubeRefresher(ctx: PlatformContext): TokenRefresher {
  return {
    async refresh(credentials, now) {
      if (!credentials.refreshToken) throw new PlatformError('auth', 'Google gave no refresh token for this account: connect it again', { platform: 'youtube' });
      const app = requireApp(ctx.apps, 'google');
      const answer = youtubeBody(
        await ctx.http.send('youtube', { method: 'POST', url: GOOGLE_TOKEN, form: { client_id: app.clientId, client_secret: app.clientSecret, refresh_token: credentials.refreshToken, grant_type: 'refresh_token' } }),
      );
      return tokenFrom(answer, now, credentials);
    },
  };
}
