// Tenant isolation by construction: handlers reach tenant tables only through a scope bound to
// the caller's organization, so a foreign id simply matches no row and answers 404 like an
// unknown one. No handler repeats the organization check itself.
import { sql, type DeleteQueryBuilder, type DeleteResult, type Kysely, type SelectQueryBuilder, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Database } from './schema.ts';

/** The tables whose rows belong to one organization. */
export type TenantTable = {
  [K in keyof Database]: Database[K] extends { organization_id: string } ? K : never;
}[keyof Database];

// Kysely cannot resolve its builder types for a table name that is still a type parameter, so
// each builder is widened once here to the shape it has for a concrete table.
const orgColumn = (table: TenantTable) => sql.ref(`${table}.organization_id`);

/** A view of the store limited to one organization's rows. Works inside transactions too. */
export function tenantScope(db: Kysely<Database>, organizationId: string) {
  return {
    organizationId,
    db,
    selectFrom<T extends TenantTable>(table: T): SelectQueryBuilder<Database, T, object> {
      const qb = db.selectFrom(table) as unknown as SelectQueryBuilder<Database, T, object>;
      return qb.where(orgColumn(table), '=', organizationId);
    },
    updateTable<T extends TenantTable>(table: T): UpdateQueryBuilder<Database, T, T, UpdateResult> {
      const qb = db.updateTable(table) as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
      return qb.where(orgColumn(table), '=', organizationId);
    },
    deleteFrom<T extends TenantTable>(table: T): DeleteQueryBuilder<Database, T, DeleteResult> {
      const qb = db.deleteFrom(table) as unknown as DeleteQueryBuilder<Database, T, DeleteResult>;
      return qb.where(orgColumn(table), '=', organizationId);
    },
    /** The same scope on a transaction. */
    with: (trx: Kysely<Database>) => tenantScope(trx, organizationId),
  };
}

export type Tenant = ReturnType<typeof tenantScope>;
