// OAuth `state`: 32 random bytes handed to the platform, only its SHA-256 kept. Valid ten minutes
// and single use: the callback claims it with one conditional update, so of two callbacks racing
// with the same state exactly one gets it.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const STATE_TTL_MS = 10 * 60_000;

const hash = (state: string) => createHash('sha256').update(state).digest('hex');

export interface NewState {
  organizationId: string;
  platform: string;
  flavour: string;
  externalId: string | null;
  redirectUrl: string | null;
  /** PKCE: the sealed code verifier (null when the connector uses none). */
  codeVerifierEnc: string | null;
  now: number;
}

/** PKCE's S256 challenge of a verifier. */
export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** A PKCE verifier (43 base64url characters) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

export async function createState(db: Kysely<Database>, input: NewState): Promise<string> {
  const state = randomBytes(32).toString('base64url');
  await db
    .insertInto('connect_states')
    .values({
      state_hash: hash(state),
      organization_id: input.organizationId,
      platform: input.platform,
      flavour: input.flavour,
      external_id: input.externalId,
      redirect_url: input.redirectUrl,
      created_at: input.now,
      expires_at: input.now + STATE_TTL_MS,
      used_at: null,
      code_verifier_enc: input.codeVerifierEnc,
    })
    .execute();
  // Old states are useless; dropping them here keeps the table small without a sweeper job.
  await db.deleteFrom('connect_states').where('expires_at', '<', input.now - STATE_TTL_MS).execute();
  return state;
}

/** Claims a state for its one callback; null when unknown, used, expired or for another platform. */
export async function consumeState(db: Kysely<Database>, platform: string, state: string, now: number) {
  const stateHash = hash(state);
  const claimed = await db
    .updateTable('connect_states')
    .set({ used_at: now })
    .where('state_hash', '=', stateHash)
    .where('platform', '=', platform)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n) return null;
  return db.selectFrom('connect_states').selectAll().where('state_hash', '=', stateHash).executeTakeFirstOrThrow();
}

/**
 * A state that may still be used, without using it up: a connect page or a connector's landing
 * reads it before it shows anything. Null when unknown, used, expired or for another platform.
 */
export async function openState(db: Kysely<Database>, platform: string, state: string, now: number): Promise<{ flavour: string; code_verifier_enc: string | null } | null> {
  const row = await db
    .selectFrom('connect_states')
    .select(['flavour', 'code_verifier_enc'])
    .where('state_hash', '=', hash(state))
    .where('platform', '=', platform)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Gives a claimed state back after a wrong sign-in on a connect page, counting the try. A page
 * claims the state for the length of its sign-in, so two submits cannot both use it.
 */
export async function releaseState(db: Kysely<Database>, platform: string, state: string, failedTries: number): Promise<void> {
  await db.updateTable('connect_states').set({ used_at: null, failed_tries: failedTries }).where('state_hash', '=', hash(state)).where('platform', '=', platform).execute();
}
