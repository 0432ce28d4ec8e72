// A job kind: its name (area.verb), the schema of its payload, how often and how long it may
// run, and its handler. Payloads carry ids only; handlers load the truth from domain rows and
// return early when the work is already done, so running one twice is harmless.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Database } from '../db/schema.ts';

export interface JobContext {
  jobId: string;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the job times out or the worker is shutting down. */
  signal: AbortSignal;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}

export interface JobDefinition<S extends TSchema = TSchema> {
  kind: string;
  payload: S;
  /** Runs in all, first one included. */
  maxAttempts: number;
  /**
   * The worker lane whose slots it runs in (default 'default'). Kinds that mostly wait on the
   * network, such as webhook sends, get a lane of their own with more slots, so a slow remote
   * end cannot take the slots other work needs.
   */
  lane?: string;
  timeoutMs: number;
  /** Delay before the next attempt after `attempt` failed; defaults to exponentialBackoff. */
  retryDelayMs?: (attempt: number) => number;
  run(payload: Static<S>, context: JobContext): Promise<void>;
}

/** A failure that retrying cannot fix: the job is failed at once. */
export class PermanentJobError extends Error {}

/** Asks for the next attempt at a given delay instead of the kind's backoff. */
export class RetryJobError extends Error {
  readonly delayMs: number;
  constructor(message: string, delayMs: number) {
    super(message);
    this.delayMs = delayMs;
  }
}

export interface RegisteredJob {
  definition: JobDefinition;
  check(payload: unknown): boolean;
  /** Why `payload` does not match the schema, e.g. "/accountId must be string" (for last_error). */
  explain(payload: unknown): string;
}

export type JobRegistry = Map<string, RegisteredJob>;

export function defineJob<S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export function createRegistry(definitions: Array<JobDefinition<TSchema>>): JobRegistry {
  const registry: JobRegistry = new Map();
  for (const definition of definitions) {
    if (registry.has(definition.kind)) throw new Error(`job kind ${definition.kind} is defined twice`);
    const validator = Compile(definition.payload);
    registry.set(definition.kind, {
      definition,
      check: (payload) => validator.Check(payload),
      explain: (payload) => {
        const [first] = validator.Errors(payload);
        return first ? `${first.instancePath || '/'} ${first.message}` : 'invalid';
      },
    });
  }
  return registry;
}
