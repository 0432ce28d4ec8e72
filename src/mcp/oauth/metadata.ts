// The two discovery documents a remote MCP client reads before anything else: the protected
// resource's (RFC 9728), found through the WWW-Authenticate of a 401 from /mcp, naming the
// authorization server; and the authorization server's (RFC 8414), naming its endpoints.
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { SCOPE } from './grants.ts';
import { OAUTH_PATHS, type OAuthUrls } from './urls.ts';

export function protectedResourceMetadata(urls: OAuthUrls): OAuthProtectedResourceMetadata {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'socialapi MCP tool server',
  };
}

export function authorizationServerMetadata(urls: OAuthUrls): OAuthMetadata & { authorization_response_iss_parameter_supported: boolean } {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.at(OAUTH_PATHS.authorize),
    token_endpoint: urls.at(OAUTH_PATHS.token),
    registration_endpoint: urls.at(OAUTH_PATHS.register),
    revocation_endpoint: urls.at(OAUTH_PATHS.revoke),
    scopes_supported: [SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
}
