// Organizations: the tenant every resource belongs to.
import type { Kysely } from 'kysely';
import type { Database, Organization } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { Clock } from '../../lib/clock.ts';

export async function createOrganization(
  db: Kysely<Database>,
  clock: Clock,
  input: { name: string; approvalRequired?: boolean },
): Promise<Organization> {
  const row: Organization = {
    id: newId('organization', clock.now()),
    name: input.name,
    approval_required: input.approvalRequired ? 1 : 0,
    created_at: clock.now(),
  };
  await db.insertInto('organizations').values(row).execute();
  return row;
}

export function listOrganizations(db: Kysely<Database>): Promise<Organization[]> {
  return db.selectFrom('organizations').selectAll().orderBy('id').execute();
}

export function findOrganization(db: Kysely<Database>, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}
