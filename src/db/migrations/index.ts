// Migrations in code, in order. Add a file and a line here; never edit one that has shipped.
import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.ts';

export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
};
