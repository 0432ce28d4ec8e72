// Account health: the platform's own view of the token (validity, expiry, granted permissions),
// the permissions each feature still needs, and what to do about it. Cached 10 minutes per
// account in the store (shared by every API node); refresh=1 checks again. A check in which the
// platform calls the token invalid marks the account needs_reconnect like any other call.
import { Type, type Static } from 'typebox';
import type { AccountRow } from '../../db/schema.ts';
import { NullableTimestamp, Timestamp } from '../../http/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { PlatformError } from '../../platforms/errors.ts';
import { missingPermissions } from '../../platforms/features.ts';
import type { TokenInspection } from '../../platforms/types.ts';
import { credentialsOf } from './credentials.ts';
import { markNeedsReconnect } from './disconnect.ts';

export const HEALTH_TTL_MS = 10 * 60_000;
const EXPIRY_WARNING_MS = 7 * 86_400_000;

export const Health = Type.Object(
  {
    accountId: Type.String(),
    platform: Type.String(),
    status: Type.String({ enum: ['active', 'needs_reconnect'] }),
    token: Type.Object({
      valid: Type.Union([Type.Boolean(), Type.Null()], { description: 'null when the platform could not be asked.' }),
      expiresAt: NullableTimestamp('null: the token does not expire (or the platform does not say).'),
    }),
    scopes: Type.Array(Type.String(), { description: 'Permissions granted, as the platform reports them.' }),
    missingPermissions: Type.Array(Type.Object({ permission: Type.String(), features: Type.Array(Type.String()) })),
    recommendations: Type.Array(Type.String()),
    checkedAt: Timestamp(),
  },
  { $id: 'AccountHealth', title: 'AccountHealth' },
);
export type Health = Static<typeof Health>;

type Deps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>;

interface Facts {
  features: Record<string, string[]>;
  /** The service refreshes this platform's tokens itself before they expire. */
  refreshable: boolean;
}

function report(row: AccountRow, status: AccountRow['status'], inspection: TokenInspection | null, facts: Facts, now: number, problem: string | null): Health {
  const scopes = inspection?.scopes ?? row.scopes.split(',').filter(Boolean);
  const valid = status === 'needs_reconnect' ? false : inspection ? inspection.valid : null;
  const expiresAt = inspection ? inspection.expiresAt : row.token_expires_at;
  const missing = missingPermissions(facts.features, scopes);
  const recommendations: string[] = [];
  if (valid === false) recommendations.push(`Reconnect the account: ${row.platform} no longer accepts its token.`);
  if (problem) recommendations.push(`The check could not reach ${row.platform} (${problem}); try again later with refresh=1.`);
  for (const m of missing) recommendations.push(`Grant ${m.permission} (needed for ${m.features.join(', ')}) when connecting, then reconnect the account.`);
  const refreshable = facts.refreshable && inspection?.refreshable !== false;
  if (valid && expiresAt !== null && expiresAt - now < EXPIRY_WARNING_MS && !refreshable) {
    recommendations.push(`The token expires on ${new Date(expiresAt).toISOString()}; reconnect the account before then.`);
  }
  recommendations.push(...(inspection?.notes ?? []));
  return {
    accountId: row.id,
    platform: row.platform,
    status,
    token: { valid, expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() },
    scopes,
    missingPermissions: missing,
    recommendations,
    checkedAt: new Date(now).toISOString(),
  };
}

async function check(deps: Deps, row: AccountRow): Promise<{ health: Health; cache: boolean }> {
  const now = deps.clock.now();
  const adapter = deps.platforms.of(row.platform);
  const credentials = credentialsOf(row, deps.sealer);
  const facts: Facts = { features: adapter?.health?.features(credentials) ?? {}, refreshable: adapter?.refresher !== undefined };
  if (row.status === 'needs_reconnect' || !adapter?.health) {
    return { health: report(row, row.status, null, facts, now, adapter?.health ? null : 'no health check for this platform yet'), cache: false };
  }
  try {
    const inspection = await adapter.health.inspect(credentials, now);
    if (inspection.username && inspection.username !== row.username) {
      await deps.store.db.updateTable('accounts').set({ username: inspection.username, updated_at: now }).where('id', '=', row.id).execute();
    }
    if (!inspection.valid) await markNeedsReconnect(deps, row.id, 'token_invalid', 'the platform reports the token as invalid');
    return { health: report(row, inspection.valid ? 'active' : 'needs_reconnect', inspection, facts, now, null), cache: true };
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    if (error.kind === 'auth') {
      await markNeedsReconnect(deps, row.id, 'token_invalid', error.message);
      return { health: report(row, 'needs_reconnect', { valid: false, expiresAt: row.token_expires_at, scopes: credentials.scopes }, facts, now, null), cache: true };
    }
    return { health: report(row, row.status, null, facts, now, error.message), cache: false };
  }
}

export async function accountHealth(deps: Deps, row: AccountRow, refresh: boolean): Promise<Health> {
  const now = deps.clock.now();
  if (!refresh) {
    const cached = await deps.store.db.selectFrom('account_health').selectAll().where('account_id', '=', row.id).executeTakeFirst();
    if (cached && cached.checked_at > now - HEALTH_TTL_MS) return JSON.parse(cached.report) as Health;
  }
  const { health, cache } = await check(deps, row);
  if (cache) {
    const values = { report: JSON.stringify(health), checked_at: now };
    await deps.store.db
      .insertInto('account_health')
      .values({ account_id: row.id, organization_id: row.organization_id, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
      .execute();
  }
  return health;
}
