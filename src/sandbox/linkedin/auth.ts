// Every api.linkedin.com call: `Authorization: Bearer` with a LinkedIn member token (401 with
// serviceErrorCode 65600/65601/65602 for an invalid, expired or revoked one), the scope the call
// needs (403 ACCESS_DENIED), and on /rest the two required headers (linkedin.md §1):
// `LinkedIn-Version: YYYYMM` of an active month (400 without it, 426 NONEXISTENT_VERSION for one
// that is not active: about a year of months up to the current one) and
// `X-Restli-Protocol-Version: 2.0.0`.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { linkedinError } from './errors.ts';
import type { LinkedInMember } from './people.ts';

export interface LinkedInCaller {
  token: TokenRecord;
  member: LinkedInMember;
  urn: string;
}

/** Months a version stays active (versions are sunset about a year after release). */
const ACTIVE_MONTHS = 12;

export function checkVersionHeaders(ctx: RouteContext): void {
  const version = ctx.request.headers['linkedin-version'];
  if (typeof version !== 'string' || !version) throw linkedinError(400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', { code: 'VERSION_MISSING' });
  const match = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(version);
  const now = new Date(ctx.state.clock.now());
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const asked = match ? Number(match[1]) * 12 + Number(match[2]) - 1 : Number.NaN;
  if (!(asked <= current && asked > current - ACTIVE_MONTHS)) throw linkedinError(426, `Requested version ${version} is not active`, { code: 'NONEXISTENT_VERSION' });
  if (ctx.request.headers['x-restli-protocol-version'] !== '2.0.0') {
    throw linkedinError(400, 'X-Restli-Protocol-Version 2.0.0 is required by this resource (URNs in paths and query parameters are read as Rest.li 2.0).', { code: 'ILLEGAL_ARGUMENT' });
  }
}

/** The member a bearer token acts as, with one of `scopes` granted (none: any valid token). */
export function linkedinAuth(ctx: RouteContext, scopes: readonly string[]): LinkedInCaller {
  const value = /^Bearer\s+(.+)$/i.exec(ctx.request.headers.authorization ?? '')?.[1]?.trim();
  const token = value ? ctx.state.token(value) : undefined;
  if (!token || token.platform !== 'linkedin' || token.type !== 'user') throw linkedinError(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' });
  if (token.revoked) throw linkedinError(401, 'The token used in the request has been revoked by the user', { serviceErrorCode: 65602, code: 'REVOKED_ACCESS_TOKEN' });
  if (ctx.state.isExpired(token)) throw linkedinError(401, 'The token used in the request has expired', { serviceErrorCode: 65601, code: 'EXPIRED_ACCESS_TOKEN' });
  const member = ctx.state.people.linkedinMembers.get(token.subjectId);
  if (!member) throw linkedinError(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' });
  if (scopes.length && !scopes.some((s) => token.scopes.includes(s))) {
    throw linkedinError(403, `Not enough permissions to access: ${ctx.method} ${ctx.path} (needs ${scopes.join(' or ')})`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
  }
  return { token, member, urn: `urn:li:person:${member.id}` };
}

/** A versioned (/rest) call: the headers, then the token. */
export function restAuth(ctx: RouteContext, scopes: readonly string[]): LinkedInCaller {
  checkVersionHeaders(ctx);
  return linkedinAuth(ctx, scopes);
}
