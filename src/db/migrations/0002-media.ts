// Media: one row per stored file. The bytes live in a media store (local disk or an S3 bucket)
// under `storage_key`, an unguessable name that is also the last segment of the public URL.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // The post that last used the media's publicUrl; no foreign key: posts arrive in their own migration.
    .addColumn('post_id', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('storage', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Since when no post references it (null while one does); the cleanup job reads it.
    .addColumn('unreferenced_since', 'bigint')
    .execute();
  await db.schema.createIndex('media_org').on('media').columns(['organization_id', 'id']).execute();
  await db.schema
    .createIndex('media_unreferenced')
    .on('media')
    .column('unreferenced_since')
    .where(sql.ref('post_id'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('media').execute();
}
