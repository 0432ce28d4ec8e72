// Instagram API with Facebook Login (platforms.md §2.1): the Meta app's Login dialog, a long-lived
// user token, and the Instagram business accounts linked to the granted Pages as choices. Each
// account keeps the Page token of its Page (it never expires, and the Instagram calls of this
// flavour accept it) and the Page id in its metadata.
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { debugToken, FACEBOOK_GRAPH, facebookUserToken, graph } from '../meta/graph.ts';
import { list, obj, str } from '../json.ts';
import type { ChoiceResolver, ConnectedAccount, ConnectOption, OAuthConnector } from '../types.ts';
import { scopesOf } from '../features.ts';

export const INSTAGRAM_FACEBOOK_FEATURES: Record<string, string[]> = {
  publish: ['instagram_basic', 'instagram_content_publish', 'pages_show_list', 'pages_read_engagement'],
  comments: ['instagram_manage_comments'],
  messages: ['instagram_manage_messages', 'pages_messaging'],
  insights: ['instagram_manage_insights'],
  webhooks: ['pages_manage_metadata'],
};

interface LinkedAccount {
  id: string;
  username: string | null;
  name: string | null;
  pictureUrl: string | null;
  pageId: string;
  pageToken: string | null;
}

async function linkedAccounts(ctx: PlatformContext, userToken: string): Promise<LinkedAccount[]> {
  const body = await graph(ctx, 'instagram', {
    url: `${FACEBOOK_GRAPH}/${ctx.graphVersion}/me/accounts`,
    query: { fields: 'id,name,access_token,instagram_business_account', limit: 100, access_token: userToken },
  });
  const out: LinkedAccount[] = [];
  for (const item of list(body.data)) {
    const page = obj(item);
    const igId = str(obj(page.instagram_business_account).id);
    if (!igId) continue;
    const ig = await graph(ctx, 'instagram', {
      url: `${FACEBOOK_GRAPH}/${ctx.graphVersion}/${igId}`,
      query: { fields: 'id,username,name,profile_picture_url', access_token: userToken },
    });
    out.push({ id: igId, username: str(ig.username), name: str(ig.name), pictureUrl: str(ig.profile_picture_url), pageId: str(page.id) ?? '', pageToken: str(page.access_token) });
  }
  return out;
}

export function instagramFacebookConnector(ctx: PlatformContext): OAuthConnector {
  return {
    flavour: 'facebook',
    authorizeUrl({ state, redirectUri }) {
      const app = requireApp(ctx.apps, 'meta');
      const url = new URL(`https://www.facebook.com/${ctx.graphVersion}/dialog/oauth`);
      url.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: redirectUri, state, scope: scopesOf(INSTAGRAM_FACEBOOK_FEATURES).join(','), response_type: 'code' }).toString();
      return ctx.http.browserUrl(url.toString());
    },
    async complete({ code, redirectUri, now }) {
      const userToken = await facebookUserToken(ctx, requireApp(ctx.apps, 'meta'), 'instagram', code, redirectUri, now);
      const accounts = await linkedAccounts(ctx, userToken.accessToken);
      const options: ConnectOption[] = accounts.map((a) => ({ id: a.id, name: a.name ?? a.username ?? a.id, kind: 'instagram_account', username: a.username, pictureUrl: a.pictureUrl }));
      return { kind: 'choices', userToken, options };
    },
  };
}

export function instagramFacebookChoices(ctx: PlatformContext): ChoiceResolver {
  return {
    async resolve({ userToken, optionIds }) {
      const { scopes } = await debugToken(ctx, requireApp(ctx.apps, 'meta'), 'instagram', userToken);
      const accounts = await linkedAccounts(ctx, userToken);
      return optionIds.map((id): ConnectedAccount => {
        const account = accounts.find((a) => a.id === id);
        if (!account?.pageToken) throw new PlatformError('permission', `the Instagram account ${id} is no longer granted to the app`, { platform: 'instagram' });
        return {
          profile: { platformUserId: account.id, username: account.username, displayName: account.name, avatarUrl: account.pictureUrl, metadata: { login: 'facebook', pageId: account.pageId } },
          token: { accessToken: account.pageToken, refreshToken: null, expiresAt: null, scopes },
        };
      });
    },
  };
}
