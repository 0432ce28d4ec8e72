// The organization's record of ad objects (migration 0018): every object created or read
// through the service, with the account it was reached through and its parent. An id without a
// record is unknown to the organization (404 in a path, 400 naming the field in a body), before
// any platform call; this is the tenant isolation of ad objects, whose ids are Meta's.
import type { AdObjectKind, AdObjectsTable } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';

export type AdRecord = AdObjectsTable;

export interface RecordInput {
  platformId: string;
  kind: AdObjectKind;
  accountId: string;
  adAccountId: string;
  parentId?: string | null;
  createdHere?: boolean;
}

const KIND_NAMES: Record<AdObjectKind, string> = {
  ad_account: 'Ad account',
  campaign: 'Campaign',
  adset: 'Ad set',
  creative: 'Creative',
  ad: 'Ad',
  audience: 'Audience',
};

/** Rows per statement: well under SQLite's limit of bound values (9 a row). */
const CHUNK = 500;

/** Records objects (inserted, or refreshed in place), in one transaction. */
export async function recordObjects(tenant: Tenant, now: number, inputs: RecordInput[]): Promise<void> {
  if (!inputs.length) return;
  if (inputs.length <= CHUNK) return upsert(tenant, now, inputs);
  await tenant.db.transaction().execute(async (trx) => {
    for (let i = 0; i < inputs.length; i += CHUNK) await upsert(tenant.with(trx), now, inputs.slice(i, i + CHUNK));
  });
}

async function upsert(tenant: Tenant, now: number, inputs: RecordInput[]): Promise<void> {
  const rows = inputs.map((i) => ({
    organization_id: tenant.organizationId,
    platform_id: i.platformId,
    kind: i.kind,
    account_id: i.accountId,
    ad_account_id: i.adAccountId,
    parent_id: i.parentId ?? null,
    created_here: i.createdHere ? (1 as const) : (0 as const),
    created_at: now,
    updated_at: now,
  }));
  await tenant.db
    .insertInto('ad_objects')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['organization_id', 'platform_id']).doUpdateSet((eb) => ({
        account_id: eb.ref('excluded.account_id'),
        ad_account_id: eb.ref('excluded.ad_account_id'),
        parent_id: eb.fn.coalesce(eb.ref('excluded.parent_id'), eb.ref('ad_objects.parent_id')),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

export async function findRecord(tenant: Tenant, platformId: string, kinds: AdObjectKind[]): Promise<AdRecord | undefined> {
  return tenant.selectFrom('ad_objects').selectAll().where('platform_id', '=', platformId).where('kind', 'in', kinds).executeTakeFirst();
}

/** The record of an id in a path: 404 when the organization has none of this kind. */
export async function pathRecord(tenant: Tenant, platformId: string, kind: AdObjectKind): Promise<AdRecord> {
  const record = await findRecord(tenant, platformId, [kind]);
  if (!record) throw errors.notFound(KIND_NAMES[kind]);
  return record;
}

/** The record of an id in a body: 400 naming the field when the organization has none. */
export async function bodyRecord(tenant: Tenant, platformId: string, kind: AdObjectKind, field: string): Promise<AdRecord> {
  const record = await findRecord(tenant, platformId, [kind]);
  if (!record) throw errors.invalid(field, `no such ${KIND_NAMES[kind].toLowerCase()}`);
  return record;
}

/** The organization's ad accounts, optionally those reached through one account. */
export async function adAccountRecords(tenant: Tenant, accountId?: string): Promise<AdRecord[]> {
  let query = tenant.selectFrom('ad_objects').selectAll().where('kind', '=', 'ad_account');
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.orderBy('platform_id').execute();
}
