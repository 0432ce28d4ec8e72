// Dashboard sign-in: a single-use link printed by the CLI (15 minutes), redeemed once for a
// browser session (12 hours). Only SHA-256 digests of the link token and of the session cookie
// are stored. The CSRF token is an HMAC of the session secret: it needs no row of its own, it
// changes with every session, and nobody without the (HttpOnly) cookie can compute it.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const LINK_TTL_MS = 15 * 60_000;
export const SESSION_TTL_MS = 12 * 3_600_000;
export const SESSION_COOKIE = 'socialapi_dashboard';
/** The page to come back to after sign-in (a pending MCP authorization), as long as a link lives. */
export const RESUME_COOKIE = 'socialapi_dashboard_resume';
export const RESUME_TTL_MS = 30 * 60_000;

/** Only a page of the dashboard itself is followed after sign-in (never another site). */
export function resumePath(value: string | undefined): string | null {
  if (!value || value.length > 4_000) return null;
  return value.startsWith('/dashboard/') && !/[\\\s]/.test(value) ? value : null;
}

const LINK_PATTERN = /^dl_[A-Za-z0-9_-]{43}$/;
const SESSION_PATTERN = /^ds_[A-Za-z0-9_-]{43}$/;

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');
const secret = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

export interface Session {
  id: string;
  organizationId: string;
  email: string | null;
  expiresAt: number;
  /** The cookie's value: the CSRF token is derived from it. */
  token: string;
}

/** Issues a sign-in link's token for an organization (the caller checked that it exists). */
export async function createSignInLink(db: Kysely<Database>, now: number, organizationId: string, email: string | null): Promise<{ token: string; expiresAt: number }> {
  const token = secret('dl');
  const expiresAt = now + LINK_TTL_MS;
  await db.insertInto('dashboard_links').values({ token_hash: digest(token), organization_id: organizationId, email, created_at: now, expires_at: expiresAt, used_at: null }).execute();
  // Links and sessions past their time are useless; dropping them here keeps both tables small
  // without a sweeper job (a day's grace keeps the "expired" answer for a link opened late).
  await db.deleteFrom('dashboard_links').where('expires_at', '<', now - 86_400_000).execute();
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<', now - 86_400_000).execute();
  return { token, expiresAt };
}

export type Redeemed = { ok: true; session: Session } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/**
 * Spends a link and opens a session, in one transaction: the conditional update lets exactly one
 * of two concurrent visits through, and a link spent, expired or unknown opens nothing.
 */
export async function redeemSignInLink(db: Kysely<Database>, now: number, token: string): Promise<Redeemed> {
  if (!LINK_PATTERN.test(token)) return { ok: false, reason: 'unknown' };
  const tokenHash = digest(token);
  return db.transaction().execute(async (trx): Promise<Redeemed> => {
    const spent = await trx
      .updateTable('dashboard_links')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['organization_id', 'email'])
      .executeTakeFirst();
    if (!spent) {
      const link = await trx.selectFrom('dashboard_links').select(['used_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
      return { ok: false, reason: !link ? 'unknown' : link.used_at !== null ? 'used' : 'expired' };
    }
    const sessionToken = secret('ds');
    const session: Session = { id: `sess_${randomBytes(10).toString('hex')}`, organizationId: spent.organization_id, email: spent.email, expiresAt: now + SESSION_TTL_MS, token: sessionToken };
    await trx
      .insertInto('dashboard_sessions')
      .values({ id: session.id, token_hash: digest(sessionToken), organization_id: session.organizationId, email: session.email, created_at: now, expires_at: session.expiresAt, revoked_at: null })
      .execute();
    return { ok: true, session };
  });
}

/** The live session behind a cookie value, or null (malformed, unknown, expired or revoked). */
export async function findSession(db: Kysely<Database>, now: number, token: string | undefined): Promise<Session | null> {
  if (!token || !SESSION_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('dashboard_sessions')
    .select(['id', 'organization_id', 'email', 'expires_at'])
    .where('token_hash', '=', digest(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { id: row.id, organizationId: row.organization_id, email: row.email, expiresAt: row.expires_at, token } : null;
}

export async function revokeSession(db: Kysely<Database>, now: number, sessionId: string): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Signs every browser of an organization out; the number of sessions revoked. */
export async function revokeOrganizationSessions(db: Kysely<Database>, now: number, organizationId: string): Promise<number> {
  const result = await db.updateTable('dashboard_sessions').set({ revoked_at: now }).where('organization_id', '=', organizationId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function csrfToken(session: Session): string {
  return createHmac('sha256', session.token).update('dashboard csrf').digest('base64url');
}

export function csrfMatches(session: Session, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfToken(session));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** How the session is named in review records: its email, else `dashboard`. */
export const reviewerOf = (session: Session): string => session.email ?? 'dashboard';
