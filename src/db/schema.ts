// Row types of every table, as Kysely sees them. Times are epoch milliseconds (integers on
// both stores: the application's clock decides "now", so tests can move it); booleans are 0/1;
// JSON is stored as text. The same shapes on SQLite and PostgreSQL keep one query code for both.
import type { Generated, Insertable, Selectable } from 'kysely';

export type Flag = 0 | 1;

export interface OrganizationsTable {
  id: string;
  name: string;
  approval_required: Flag;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  /** SHA-256 of the whole key, hex: the only form of the secret that is kept. */
  key_hash: string;
  /** The first characters of the key, shown in listings so people can tell keys apart. */
  prefix: string;
  /** Requests per minute; null means the service default. */
  rate_limit: number | null;
  approval_required: Flag;
  created_at: number;
  revoked_at: number | null;
}

export interface AccountsTable {
  id: string;
  organization_id: string;
  platform: string;
  platform_user_id: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  external_id: string | null;
  status: 'active' | 'needs_reconnect';
  approval_required: Flag;
  /** AES-256-GCM sealed tokens (see lib/crypto.ts); never stored in clear. */
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: number | null;
  scopes: string;
  /** Platform-specific details (page ids, business account ids …), JSON. */
  metadata: string;
  connected_at: number;
  updated_at: number;
}

export type JobStatus = 'pending' | 'running' | 'failed';

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON; ids only, the truth lives in the domain rows. */
  payload: string;
  status: JobStatus;
  /** When a pending job is due. */
  run_at: number;
  attempts: Generated<number>;
  max_attempts: number;
  /** The lease of a running job: another worker may take it once this has passed. */
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  /** At most one pending or running job per key (e.g. one refresh per account). */
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  jobs: JobsTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type AccountRow = Selectable<AccountsTable>;
export type NewAccountRow = Insertable<AccountsTable>;
export type JobRow = Selectable<JobsTable>;
