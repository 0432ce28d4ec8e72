// The job catalogue. A job kind is declared once, with jobKind(): its name (area.verb), the
// TypeBox schema of its payload, how often it may run and in which lane. Whoever enqueues it and
// the handler that runs it both take their payload type from that one declaration, so the two
// cannot drift. Payloads carry ids only; handlers load the truth from domain rows and return
// early when the work is already done, so running one twice is harmless.
// A kind's name and payload are stored with every queued job: renaming one, or changing its
// payload incompatibly, strands the jobs already in a database.
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
  /**
   * Ends the job inside the handler's last transaction `trx`, for a handler whose work is one
   * transaction. SQLite: the job's row is deleted there, so the work and the job's end commit
   * together, in one commit instead of two; should the job no longer be this run's (its lease
   * lost), it throws and the work rolls back. PostgreSQL: nothing here; the worker deletes
   * finished jobs in batches afterwards, one round trip for many.
   */
  completeIn(trx: Kysely<Database>): Promise<void>;
}

/** What a job is, apart from its handler: enough to queue it, and to check its payload. */
export interface JobKind<S extends TSchema = TSchema> {
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
}

/** The payload type of a kind: `JobPayload<typeof postDeliver>`. */
export type JobPayload<K extends JobKind> = Static<K['payload']>;

/** How a kind runs: its time limit, its retry delays and its handler. */
export interface JobHandler<S extends TSchema = TSchema> {
  timeoutMs: number;
  /** Delay before the next attempt after `attempt` failed; defaults to exponentialBackoff. */
  retryDelayMs?: (attempt: number) => number;
  run(payload: Static<S>, context: JobContext): Promise<void>;
}

export interface JobDefinition<S extends TSchema = TSchema> extends JobKind<S>, JobHandler<S> {}

/** Declares a job kind; `Static<typeof kind.payload>` is what enqueue() takes and run() receives. */
export function jobKind<S extends TSchema>(kind: string, payload: S, options: { maxAttempts: number; lane?: string }): JobKind<S> {
  return { kind, payload, ...options };
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

/** A kind with its handler, whose payload is typed by the kind's schema. */
export function defineJob<S extends TSchema>(kind: JobKind<S>, handler: JobHandler<NoInfer<S>>): JobDefinition<S>;
/** A kind and its handler in one object (tests' throwaway kinds). */
export function defineJob<S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S>;
export function defineJob<S extends TSchema>(kind: JobKind<S> | JobDefinition<S>, handler?: JobHandler<S>): JobDefinition<S> {
  if (handler) return { ...kind, ...handler };
  if (!('run' in kind)) throw new Error(`job kind ${kind.kind} has no handler`);
  return kind;
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
