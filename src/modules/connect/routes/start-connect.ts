import { Type } from 'typebox';
import { callerOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { PLATFORMS } from '../../accounts/schemas.ts';
import { authorizationUrl } from '../authorize.ts';

function checkRedirectUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.invalid('query.redirectUrl', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.invalid('query.redirectUrl', 'must be an absolute http(s) URL');
  return url.toString();
}

export function startConnect(api: Api): void {
  api.get(
    '/connect/:platform',
    {
      schema: {
        operationId: 'startConnect',
        tags: ['Accounts'],
        summary: 'An OAuth authorization URL to connect an account',
        description:
          'The URL is valid 10 minutes and single use. After the consent the browser goes to redirectUrl with accountId, pendingId ' +
          '(several Pages or accounts to choose from) or error in the query; without redirectUrl it lands on a small done page. ' +
          'A platform whose sign-in starts on a page of ours (whatsapp\'s embedded signup) returns that page\'s URL, and a platform that signs in with credentials rather than an OAuth consent ' +
          '(an app password) the URL of the service\'s own sign-in page, where the person types them; only the session they yield is kept.',
        params: Type.Object({ platform: Type.String({ enum: [...PLATFORMS] }) }),
        querystring: Type.Object({
          externalId: Type.Optional(Type.String({ maxLength: 200, description: 'Stored on the connected account or accounts.' })),
          redirectUrl: Type.Optional(Type.String({ maxLength: 2000, description: 'Absolute http(s) URL the browser is sent to afterwards.' })),
          login: Type.Optional(Type.String({ enum: ['instagram', 'facebook'], description: 'instagram only: Instagram Login (default) or Facebook Login.' })),
        }),
        response: { 200: Type.Object({ authUrl: Type.String(), expiresInSeconds: Type.Integer() }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { deps } = request.server;
      const { platform } = request.params;
      const redirectUrl = checkRedirectUrl(request.query.redirectUrl);
      if (request.query.login && platform !== 'instagram') throw errors.invalid('query.login', 'only for instagram');
      return authorizationUrl(deps, {
        organizationId: callerOf(request).organizationId,
        platform,
        ...(request.query.login ? { login: request.query.login } : {}),
        externalId: request.query.externalId ?? null,
        redirectUrl,
      });
    },
  );
}
