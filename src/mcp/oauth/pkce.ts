// PKCE (RFC 7636) with S256 only, as OAuth 2.1 and the MCP authorization specification ask: the
// client proves at the token endpoint that it is the one that started the authorization.
import { createHash, timingSafeEqual } from 'node:crypto';

/** An S256 challenge: base64url of a SHA-256, 43 characters. */
export const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
export const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER_PATTERN.test(verifier)) return false;
  const computed = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
