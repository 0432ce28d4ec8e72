// The MCP specification asks a Streamable HTTP server to check Origin, so that a web page the
// user visits cannot drive a local server through DNS rebinding: a request carrying an Origin
// that is not allowed is refused with 403. Requests without Origin (MCP clients that are not
// browsers) pass; the bearer token still applies to them.
export interface OriginPolicy {
  allows(origin: string | undefined): boolean;
}

/** The service's own origin (PUBLIC_BASE_URL's), plus MCP_ALLOWED_ORIGINS ("*" allows any). */
export function originPolicy(publicBaseUrl: string, allowed: readonly string[]): OriginPolicy {
  const any = allowed.includes('*');
  const origins = new Set([new URL(publicBaseUrl).origin, ...allowed]);
  return {
    allows: (origin) => origin === undefined || any || origins.has(origin),
  };
}
