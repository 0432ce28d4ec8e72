// Where the authorization server and the protected resource live, from PUBLIC_BASE_URL: the
// service is both, so the issuer is the base address and the resource is its /mcp.
export const MCP_PATH = '/mcp';

export const OAUTH_PATHS = {
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

export interface OAuthUrls {
  issuer: string;
  /** The MCP endpoint as an RFC 8707 resource indicator. */
  resource: string;
  protectedResourceMetadata: string;
  at(path: string): string;
}

export function oauthUrls(publicBaseUrl: string): OAuthUrls {
  const issuer = publicBaseUrl.replace(/\/+$/, '');
  return {
    issuer,
    resource: `${issuer}${MCP_PATH}`,
    protectedResourceMetadata: `${issuer}${OAUTH_PATHS.protectedResource}`,
    at: (path) => `${issuer}${path}`,
  };
}

/** Whether a `resource` a client sent names our MCP endpoint (a trailing slash is tolerated). */
export function isOurResource(urls: OAuthUrls, resource: string): boolean {
  return resource.replace(/\/+$/, '') === urls.resource;
}
