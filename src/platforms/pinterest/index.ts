// pinterest (DESIGN "More platforms"; pinterest.md): OAuth 2.0 code with HTTP Basic client auth at
// /v5/oauth/token, the profile from /v5/user_account, refresh with the newest refresh token of
// every answer stored (continuous refresh), health from the profile read, the boards of the
// account listed live (GET /accounts/{id}/boards), Pins (images by URL, carousels, videos through
// media registration and the S3 form upload), deleting them, editing their description, and
// their lifetime metrics. Pinterest has no API for comments on organic Pins.
import { Type } from 'typebox';
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import type { PlatformDefinition } from '../definition.ts';
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { list, numberOf, obj, str, text, type Json } from '../json.ts';
import type { AccountCredentials, PlatformAdapter, PlatformProfile, TokenSet } from '../types.ts';
import { PINTEREST_API, pinterestApi, type PinterestApi } from './api.ts';
import { pinterestAccountInsights, pinterestInsights } from './insights.ts';
import { pinterestMedia } from './media-rules.ts';
import { PinterestData, PinterestOptions } from './options.ts';
import { pinterestPublisher } from './publish.ts';
import { pinterestPostEditor, pinterestPostRemover } from './published.ts';
import { validatePinterest } from './validate.ts';

export const PINTEREST_FEATURES: Record<string, string[]> = {
  profile: ['user_accounts:read'],
  // Creating a Pin: boards:read and pins:write; the "Create boards and Pins" guide asks boards:write too.
  // pins:read reads a board's Pins back after an interrupted create.
  publish: ['boards:read', 'boards:write', 'pins:read', 'pins:write'],
  secretBoards: ['boards:read_secret', 'pins:read_secret'],
};

const SCOPES = ['boards:read', 'boards:read_secret', 'boards:write', 'pins:read', 'pins:read_secret', 'pins:write', 'user_accounts:read'];

/** A token answer's failure: a refused grant (400) means consenting again; a refused client (401) is our configuration. */
function tokenError(response: PlatformResponse): PlatformError {
  const body = obj(response.body);
  const status = response.status;
  const kind: PlatformErrorKind = status >= 500 ? 'transient' : status === 429 ? 'rate_limited' : status === 401 ? 'permanent' : 'auth';
  return new PlatformError(kind, text(body.message) || `HTTP ${status}`, { platform: 'pinterest', status, ...(numberOf(body.code) !== null ? { code: numberOf(body.code) ?? 0 } : {}) });
}

function tokenSet(body: Json, now: number, previousRefresh: string | null): TokenSet {
  const expiresIn = numberOf(body.expires_in);
  const refreshIn = numberOf(body.refresh_token_expires_in);
  const refreshAt = numberOf(body.refresh_token_expires_at);
  return {
    accessToken: text(body.access_token),
    // Continuous refresh: each answer carries the refresh token to keep (a new one after a refresh).
    refreshToken: str(body.refresh_token) ?? previousRefresh,
    expiresAt: expiresIn !== null ? now + expiresIn * 1000 : null,
    scopes: text(body.scope).split(/[\s,]+/).filter(Boolean),
    refreshExpiresAt: refreshAt !== null ? refreshAt * 1000 : refreshIn !== null ? now + refreshIn * 1000 : null,
  };
}

async function profileOf(api: PinterestApi, token: string): Promise<PlatformProfile> {
  const me = await api.json(token, { path: '/user_account' });
  const username = str(me.username);
  return {
    platformUserId: text(me.id) || (username ?? ''),
    username,
    displayName: str(me.business_name) ?? username,
    avatarUrl: str(me.profile_image),
    metadata: { accountType: text(me.account_type) },
  };
}

/** The account's boards, each with its sections (GET /v5/boards, then each board's sections). */
async function boardsOf(api: PinterestApi, credentials: AccountCredentials): Promise<unknown> {
  const token = credentials.accessToken;
  const all = async (path: string, query: Record<string, string> = {}) => {
    const items: Json[] = [];
    let bookmark: string | null = null;
    for (let page = 0; page < 20; page++) {
      const body = await api.json(token, { path, query: { page_size: 250, ...query, ...(bookmark ? { bookmark } : {}) } });
      items.push(...list(body.items).map(obj));
      bookmark = str(body.bookmark);
      if (!bookmark) break;
    }
    return items;
  };
  const boards = await all('/boards', { privacy: 'ALL' });
  const out = [];
  for (const board of boards) {
    const id = text(board.id);
    const sections = await all(`/boards/${encodeURIComponent(id)}/sections`);
    out.push({ id, name: text(board.name), privacy: text(board.privacy), sections: sections.map((s) => ({ id: text(s.id), name: text(s.name) })) });
  }
  return { boards: out };
}

export function pinterestAdapter(ctx: PlatformContext): PlatformAdapter<'pinterest'> {
  const api = pinterestApi(ctx.http);
  const tokenCall = async (form: Record<string, string>, now: number, previousRefresh: string | null) => {
    const app = requireApp(ctx.apps, 'pinterest');
    const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64');
    const response = await ctx.http.send('pinterest', { method: 'POST', url: `${PINTEREST_API}/oauth/token`, form, headers: { authorization: `Basic ${basic}` } });
    if (response.status >= 300 || !str(obj(response.body).access_token)) throw tokenError(response);
    return tokenSet(obj(response.body), now, previousRefresh);
  };
  return {
    platform: 'pinterest',
    connectors: [
      {
        flavour: 'pinterest',
        authorizeUrl({ state, redirectUri }) {
          const app = requireApp(ctx.apps, 'pinterest');
          const url = new URL('https://www.pinterest.com/oauth/');
          url.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: redirectUri, response_type: 'code', scope: SCOPES.join(','), state }).toString();
          return ctx.http.browserUrl(url.toString());
        },
        async complete({ code, redirectUri, now }) {
          const token = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }, now, null);
          return { kind: 'account', account: { profile: await profileOf(api, token.accessToken), token } };
        },
      },
    ],
    refresher: {
      refresh: (credentials, now) => tokenCall({ grant_type: 'refresh_token', refresh_token: credentials.refreshToken ?? '' }, now, credentials.refreshToken),
    },
    health: {
      async inspect(credentials) {
        await profileOf(api, credentials.accessToken);
        return { valid: true, expiresAt: credentials.expiresAt, scopes: credentials.scopes, refreshable: credentials.refreshToken !== null };
      },
      features: () => PINTEREST_FEATURES,
    },
    publisher: pinterestPublisher(api, ctx.media),
    editor: pinterestPostEditor(api),
    remover: pinterestPostRemover(api),
    postInsights: pinterestInsights(api),
    accountInsights: pinterestAccountInsights(api),
    accountResources: { boards: (credentials) => boardsOf(api, credentials) },
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    pinterest: true;
  }
}

const Section = Type.Object({ id: Type.String(), name: Type.String() });
const Board = Type.Object({
  id: Type.String({ description: 'The boardId of a pinterest target.' }),
  name: Type.String(),
  privacy: Type.String({ description: 'PUBLIC, PROTECTED or SECRET.' }),
  sections: Type.Array(Section, { description: 'Its sections (boardSectionId).' }),
});

/** Everything the service knows about pinterest (listed in ../registry.ts). */
export const pinterestPlatform: PlatformDefinition<'pinterest'> = {
  name: 'pinterest',
  displayName: 'Pinterest',
  apps: [{ name: 'pinterest', idVar: 'PINTEREST_APP_ID', secretVar: 'PINTEREST_APP_SECRET', sandbox: { clientId: 'sandbox-pinterest-app', clientSecret: 'sandbox-pinterest-secret' } }],
  adapter: pinterestAdapter,
  publishing: { data: PinterestData, options: PinterestOptions, validate: validatePinterest, media: pinterestMedia },
  accountResources: [{ name: 'boards', summary: 'The account’s boards and their sections, for a post’s boardId and boardSectionId', response: Type.Object({ boards: Type.Array(Board) }) }],
  // Daily, 01 to 04 UTC (DESIGN "More platforms", Analytics).
  bestTime: [
    [0, 2, 100], [1, 2, 100], [2, 2, 100], [3, 2, 100], [4, 2, 100], [5, 2, 100], [6, 2, 100],
    [0, 1, 92], [1, 1, 92], [2, 1, 92], [3, 1, 92], [4, 1, 92], [5, 1, 92], [6, 1, 92],
    [0, 3, 90], [1, 3, 90], [2, 3, 90], [3, 3, 90], [4, 3, 90], [5, 3, 90], [6, 3, 90],
    [0, 4, 80], [1, 4, 80], [2, 4, 80], [3, 4, 80], [4, 4, 80], [5, 4, 80], [6, 4, 80],
  ],
};
