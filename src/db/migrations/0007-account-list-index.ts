// GET /accounts lists an organization's accounts in id order: an index on (organization_id, id)
// serves the filter and the order in one range, where the one on (organization_id, external_id)
// left a sort behind.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('accounts_org_id').on('accounts').columns(['organization_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('accounts_org_id').execute();
}
