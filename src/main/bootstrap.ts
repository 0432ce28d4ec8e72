// First start on an empty database: a default organization and one API key, printed once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { createKey } from '../modules/keys/service.ts';
import { createOrganization } from '../modules/orgs/service.ts';

export interface Bootstrapped {
  organizationId: string;
  key: string;
}

export async function bootstrapIfEmpty(db: Kysely<Database>, clock: Clock): Promise<Bootstrapped | null> {
  return db.transaction().execute(async (trx) => {
    const any = await trx.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
    if (any) return null;
    const org = await createOrganization(trx, clock, { name: 'Default' });
    const { key } = await createKey(trx, clock, org.id, { name: 'first key' });
    return { organizationId: org.id, key };
  });
}
