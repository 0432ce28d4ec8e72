// linkedin (DESIGN "More platforms"; linkedin.md): the member's OAuth 2.0 consent, the
// organizations they administer offered as a pending choice (LINKEDIN_ORGANIZATIONS=1), refresh
// for apps LinkedIn approved for refresh tokens (365 days from consent, never extended), health
// from token introspection, and the Posts API.
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import type { PlatformDefinition } from '../definition.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformAdapter } from '../types.ts';
import { LINKEDIN_WWW, linkedinApi, linkedinBody, type LinkedInSettings } from './api.ts';
import { introspect, linkedinChoices, linkedinConnector, tokenFrom } from './connect.ts';
import { isOrganization, ORGANIZATION_FEATURES, PERSON_FEATURES } from './features.ts';
import { linkedinComments } from './comments.ts';
import { linkedinInsights } from './insights.ts';
import { linkedinMedia } from './media-rules.ts';
import { LinkedInData, LinkedInOptions } from './options.ts';
import { linkedinPublisher } from './publish.ts';
import { linkedinPostEditor, linkedinPostRemover } from './published.ts';
import { validateLinkedIn } from './validate.ts';

/** A month LinkedIn serves (versions live about a year; move it forward with LINKEDIN_VERSION). */
export const DEFAULT_LINKEDIN_VERSION = '202610';
const DAY_MS = 86_400_000;

export function linkedinAdapter(ctx: PlatformContext, settings: LinkedInSettings): PlatformAdapter<'linkedin'> {
  const api = linkedinApi(ctx.http, settings);
  const insights = linkedinInsights(api);
  const comments = linkedinComments(api);
  return {
    platform: 'linkedin',
    connectors: [linkedinConnector(ctx, api)],
    choices: linkedinChoices(ctx, api),
    refresher: {
      async refresh(credentials, now) {
        // Most apps get no refresh token: the member consents again before the 60 days end (health warns).
        if (!credentials.refreshToken) throw new PlatformError('permanent', 'LinkedIn gave this app no refresh token (only apps it approved get one): reconnect the account before the token expires', { platform: 'linkedin' });
        const app = requireApp(ctx.apps, 'linkedin');
        const response = await ctx.http.send('linkedin', {
          method: 'POST',
          url: `${LINKEDIN_WWW}/oauth/v2/accessToken`,
          form: { grant_type: 'refresh_token', refresh_token: credentials.refreshToken, client_id: app.clientId, client_secret: app.clientSecret },
        });
        // A refused refresh token (expired, revoked) means consenting again.
        if (response.status === 400) throw new PlatformError('auth', 'LinkedIn refused the refresh token; the member must consent again', { platform: 'linkedin', status: 400 });
        return tokenFrom(linkedinBody(response), now, credentials).token;
      },
    },
    health: {
      async inspect(credentials, now) {
        const token = await introspect(ctx, credentials.accessToken);
        const refreshEnds = typeof credentials.metadata.refreshTokenExpiresAt === 'number' ? credentials.metadata.refreshTokenExpiresAt : null;
        const notes: string[] = [];
        if (credentials.refreshToken && refreshEnds !== null) {
          const left = Math.ceil((refreshEnds - now) / DAY_MS);
          notes.push(`LinkedIn's refresh token ends on ${new Date(refreshEnds).toISOString()} (${left} days; 365 days from consent, never extended): reconnect the account before then.`);
        }
        return { valid: token.active, expiresAt: token.expiresAt ?? credentials.expiresAt, scopes: token.scopes.length ? token.scopes : credentials.scopes, refreshable: credentials.refreshToken !== null, notes };
      },
      features: (credentials) => (isOrganization(credentials.metadata) ? ORGANIZATION_FEATURES : PERSON_FEATURES),
    },
    publisher: linkedinPublisher(api, ctx.media),
    editor: linkedinPostEditor(api),
    remover: linkedinPostRemover(api),
    commentReader: comments.reader,
    commentWriter: comments.writer,
    commentRemover: comments.remover,
    postInsights: insights.post,
    accountInsights: insights.account,
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    linkedin: true;
  }
}

/** Everything the service knows about linkedin (listed in ../registry.ts). */
export const linkedinPlatform: PlatformDefinition<'linkedin', LinkedInSettings> = {
  name: 'linkedin',
  displayName: 'LinkedIn',
  apps: [{ name: 'linkedin', idVar: 'LINKEDIN_CLIENT_ID', secretVar: 'LINKEDIN_CLIENT_SECRET', sandbox: { clientId: 'sandbox-linkedin-client', clientSecret: 'sandbox-linkedin-secret' } }],
  settings: (read) => ({ version: read.text('LINKEDIN_VERSION') ?? DEFAULT_LINKEDIN_VERSION, organizations: read.flag('LINKEDIN_ORGANIZATIONS', read.sandbox) }),
  adapter: linkedinAdapter,
  // No comment webhooks for these apps: organization posts' comments are polled (DESIGN, Comments and inbox).
  pollComments: true,
  publishing: { data: LinkedInData, options: LinkedInOptions, validate: validateLinkedIn, media: linkedinMedia },
  // Tuesday to Thursday, 12 to 15 UTC (DESIGN "More platforms", Analytics).
  bestTime: [
    [1, 13, 100], [2, 13, 98], [3, 13, 96], [1, 12, 94], [2, 12, 92], [3, 12, 90], [1, 14, 88], [2, 14, 86], [3, 14, 84], [1, 15, 80], [2, 15, 78], [3, 15, 76],
  ],
};
