// The stored record of each connected WhatsApp number (GET /whatsapp/accounts/{id}/phone-number):
// the Cloud API's description of the number as last read, served while fresh and refreshed on
// request, when stale, after registering, and by phone_number_quality_update webhooks; and the
// sealed two-step PIN the number was last registered with. Indexed by business account, as
// WhatsApp webhooks name the business account, not the number.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('whatsapp_numbers')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('waba_id', 'text', (c) => c.notNull())
    .addColumn('phone_number_id', 'text', (c) => c.notNull())
    // JSON: the number as the API shows it (display number, verified name, quality, limit,
    // onboarding); null until first read.
    .addColumn('record', 'text')
    .addColumn('refreshed_at', 'bigint')
    // The two-step verification PIN last registered with, sealed like tokens: a later
    // POST .../register without a pin uses it.
    .addColumn('pin_enc', 'text')
    .execute();
  await db.schema.createIndex('whatsapp_numbers_waba').on('whatsapp_numbers').column('waba_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('whatsapp_numbers').execute();
}
