// PKCE for OAuth connects whose platform asks for it (X requires it even of confidential
// clients): the code verifier made when the connection starts is kept sealed with its state row,
// and the callback hands it to the code exchange.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connect_states').addColumn('code_verifier_enc', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connect_states').dropColumn('code_verifier_enc').execute();
}
