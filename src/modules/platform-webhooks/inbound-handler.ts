// The shape of an inbound webhook handler, and the kinds of a stored body. platform_event.process
// (process-job.ts) runs every registered handler (handlers.ts) on every stored body, in the order
// of the list: first each one's parse(), outside the transaction (it may read the platform), then
// each one's record(), inside it, with marking the row. A handler's `kinds` are the envelope
// kinds it reads or deliberately ignores; a body with a kind no handler lists stays `unhandled`
// with a note, and the next worker start runs it again (rerun-job.ts), so a handler added later
// picks it up. A platform with webhooks of its own adds a handler to the list.
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { Database } from '../../db/schema.ts';
import { obj, str } from '../../platforms/json.ts';
import { readEnvelope, type Json } from './envelope.ts';
import { isThreadsNotification, THREADS_OBJECT } from './threads-changes.ts';

export type InboundDeps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>;

export interface InboundContext {
  deps: InboundDeps;
  /** The stored webhook's id. */
  eventId: string;
  /** The job's attempt: a handler reading the platform throws a transient failure while attempts are left. */
  attempt: number;
  maxAttempts: number;
}

/** What a handler's parse() answers: its own items, and what it says in the stored webhook's note. */
export interface ParsedInbound {
  /** Kinds (or items) understood and deliberately not recorded, listed in the note after `ignored:`. */
  ignored: string[];
  /** Further notes (a platform read that failed …), appended to the note. */
  notes?: string[];
}

export interface InboundHandlerSpec<P extends ParsedInbound> {
  name: string;
  /** The envelope kinds (see envelopeKinds) this handler reads or deliberately ignores. */
  kinds: readonly string[];
  /** The body as its JSON object, or the raw text when it is not JSON. Outside the transaction. */
  parse(body: string | Json, context: InboundContext): P | Promise<P>;
  /** Writes what parse() found, inside the job's transaction; answers the number of inbox events emitted. */
  record(trx: Kysely<Database>, deps: Pick<AppDeps, 'store'>, parsed: P, receivedAt: number, now: number): Promise<number>;
}

/** A handler as the registry holds it: parse() answers what it found bound to its record(). */
export interface InboundHandler {
  name: string;
  kinds: readonly string[];
  parse(body: string | Json, context: InboundContext): Promise<PreparedInbound>;
}

export interface PreparedInbound {
  ignored: string[];
  notes: string[];
  record(trx: Kysely<Database>, deps: Pick<AppDeps, 'store'>, receivedAt: number, now: number): Promise<number>;
}

export function inboundHandler<P extends ParsedInbound>(spec: InboundHandlerSpec<P>): InboundHandler {
  return {
    name: spec.name,
    kinds: spec.kinds,
    async parse(body, context) {
      const parsed = await spec.parse(body, context);
      return { ignored: parsed.ignored, notes: parsed.notes ?? [], record: (trx, deps, receivedAt, now) => spec.record(trx, deps, parsed, receivedAt, now) };
    },
  };
}

/**
 * The kinds of one envelope: `object.field` per change, `object.messaging` per entry with
 * messaging items; a Threads notification's `threads.field`. `object` is the body's own
 * (a string), as the route stores it.
 */
export function envelopeKinds(body: string | Json): { object: string | null; kinds: string[] } {
  const parsed = readEnvelope(body);
  if (!parsed) return { object: null, kinds: [] };
  if (isThreadsNotification(parsed)) return { object: THREADS_OBJECT, kinds: [`${THREADS_OBJECT}.${str(obj(parsed.values).field) ?? '?'}`] };
  const object = typeof parsed.object === 'string' ? parsed.object : null;
  const prefix = str(parsed.object) ?? '?';
  const kinds = new Set<string>();
  for (const entry of Array.isArray(parsed.entry) ? parsed.entry.map(obj) : []) {
    for (const change of Array.isArray(entry.changes) ? entry.changes.map(obj) : []) kinds.add(`${prefix}.${str(change.field) ?? '?'}`);
    if (Array.isArray(entry.messaging) && entry.messaging.length) kinds.add(`${prefix}.messaging`);
  }
  return { object, kinds: [...kinds] };
}

/** The kinds of a body that no handler lists, in the body's order. */
export function unhandledKinds(body: string | Json, handlers: readonly InboundHandler[]): string[] {
  return envelopeKinds(body).kinds.filter((kind) => !handlers.some((handler) => handler.kinds.includes(kind)));
}
