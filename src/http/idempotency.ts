// Retry-safe platform writes (issue 29, item 5): an operation whose route says
// `config: { idempotent: {…} }` takes `x-request-id` with the semantics POST /posts has (DESIGN
// "Idempotency"): kept 24 hours per organization; the same key with the same operation, path,
// query and body answers the first answer again (200); another request is 409
// IDEMPOTENCY_KEY_REUSED; while the first runs, 409 REQUEST_IN_PROGRESS.
//
// The key's row is inserted before the handler runs, in its own short transaction (the primary
// key decides between two concurrent requests, on both stores). Every platform call that may
// change something first commits a marker on the row (lib/platform-writes.ts, from the platform
// HTTP client), and the answer is stored when it is sent (onSend). So a retry can tell:
// - no marker: nothing reached a platform. A request that failed frees the key; a running row
//   this old (UNMARKED_ABANDONED_MS) belongs to a request that died, and is taken over.
// - a marker and a definite answer: stored and answered again. A failure after a platform
//   refusal (a 4xx from the platform) made nothing and frees the key; a failure after a write the
//   platform accepted is the first answer, kept.
// - a marker and no definite answer: the request ended without one (no answer from the
//   platform, a 5xx) or died (the marker is older than a platform call can take). The outcome
//   is unknown. The operation's `find` looks for what the call made (a message in the
//   conversation, the account's comment with that text) and answers it, or, finding nothing,
//   runs the operation again; a `repeatable` operation (a switch, an upload nobody sees) runs
//   again; any other answers 409 REQUEST_OUTCOME_UNKNOWN and sends nothing.
// Only the request holding the row (`owner`) writes it: one whose key was taken over cannot
// mark, so it makes no platform call.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type TSchema } from 'typebox';
import type { Database } from '../db/schema.ts';
import { canonicalHash } from '../lib/canonical-hash.ts';
import { watchPlatformWrites, type PlatformWriteWatch } from '../lib/platform-writes.ts';
import { CLOCK_SKEW_MS } from '../platforms/create-once.ts';
import { callerOf } from './auth.ts';
import { apiError } from './errors.ts';
import { errorResponses } from './schemas.ts';
import type { Api } from './types.ts';

export const KEY_TTL_MS = 24 * 3600_000;
/** A running row with no marker this long after its claim belongs to a request that died. */
export const UNMARKED_ABANDONED_MS = 5 * 60_000;
/** Beyond the platform call timeout, before a marked row without an answer counts as interrupted. */
export const IN_FLIGHT_MARGIN_MS = 5_000;

export const KEY_HEADER = 'x-request-id';

/** How an operation's interrupted request is settled (see the top of this file). */
export interface IdempotentOperation {
  /**
   * What an interrupted request made, looked for on the platform or in the store among what
   * appeared since `sinceMs`: the answer it would have given (the route's success body), or null
   * when nothing was made (the operation then runs again).
   */
  find?: (request: FastifyRequest, sinceMs: number) => Promise<unknown>;
  /** Running the operation again makes nothing twice (a switch, an edit to the same text, an upload only we see). */
  repeatable?: true;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation takes x-request-id and is retry-safe (http/idempotency.ts). */
    idempotent?: IdempotentOperation;
  }
}

interface Held {
  db: Kysely<Database>;
  organizationId: string;
  key: string;
  owner: string;
  now: () => number;
  firstCallAt: number | null;
  /** A platform write was accepted (2xx/3xx). */
  made: boolean;
  /** A platform write got no answer, or a 5xx: it may have been made. */
  unknown: boolean;
}

type Claim = { kind: 'claimed'; owner: string } | { kind: 'replay'; body: string } | { kind: 'interrupted'; owner: string; status: 'running' | 'interrupted'; since: number };

const newOwner = () => randomBytes(12).toString('base64url');

const inProgress = () => apiError('REQUEST_IN_PROGRESS', `A request with this ${KEY_HEADER} is in progress`);

interface ClaimInput {
  organizationId: string;
  key: string;
  operation: string;
  hash: string;
  now: number;
  /** How long a platform call may take (the client's timeout and a margin). */
  inFlightMs: number;
}

async function claimKey(db: Kysely<Database>, input: ClaimInput): Promise<Claim> {
  const { organizationId, key, now } = input;
  return db.transaction().execute(async (trx) => {
    // An expired key is free again.
    await trx.deleteFrom('request_keys').where('organization_id', '=', organizationId).where('key', '=', key).where('created_at', '<=', now - KEY_TTL_MS).execute();
    const owner = newOwner();
    const inserted = await trx
      .insertInto('request_keys')
      .values({ organization_id: organizationId, key, operation: input.operation, request_hash: input.hash, status: 'running', owner, answer_status: null, answer_body: null, call_started_at: null, last_call_at: null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 1n) return { kind: 'claimed', owner } as const;
    const row = await trx.selectFrom('request_keys').selectAll().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
    if (!row) throw inProgress();
    if (row.operation !== input.operation || row.request_hash !== input.hash) {
      throw apiError('IDEMPOTENCY_KEY_REUSED', `This ${KEY_HEADER} was used with another request in the last 24 hours`);
    }
    if (row.status === 'done') return { kind: 'replay', body: row.answer_body ?? '{}' } as const;
    const marker = row.call_started_at === null ? null : Number(row.call_started_at);
    if (row.status === 'interrupted' && marker !== null) return { kind: 'interrupted', owner: row.owner, status: row.status, since: marker } as const;
    if (marker === null) {
      // Nothing reached a platform: a request that died this long ago is taken over.
      if (now - Number(row.updated_at) < UNMARKED_ABANDONED_MS) throw inProgress();
      const taken = await trx.updateTable('request_keys').set({ owner, status: 'running', updated_at: now }).where('organization_id', '=', organizationId).where('key', '=', key).where('owner', '=', row.owner).executeTakeFirst();
      if (taken.numUpdatedRows !== 1n) throw inProgress();
      return { kind: 'claimed', owner } as const;
    }
    // A marked running row: its latest call may still be on its way, until it times out.
    if (now - Number(row.last_call_at ?? marker) < input.inFlightMs) throw inProgress();
    return { kind: 'interrupted', owner: row.owner, status: row.status, since: marker } as const;
  });
}

/**
 * Takes an interrupted row over (it stays running, so other retries wait); `clearMarker` when
 * the operation runs again from scratch. Null when another request took it first.
 */
async function takeOver(db: Kysely<Database>, organizationId: string, key: string, claim: Extract<Claim, { kind: 'interrupted' }>, now: number, clearMarker: boolean): Promise<string | null> {
  const owner = newOwner();
  const taken = await db
    .updateTable('request_keys')
    .set({ owner, status: 'running', updated_at: now, last_call_at: clearMarker ? null : now, ...(clearMarker ? { call_started_at: null } : {}) })
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .where('owner', '=', claim.owner)
    .where('status', '=', claim.status)
    .executeTakeFirst();
  return taken.numUpdatedRows === 1n ? owner : null;
}

function rowOf(held: Pick<Held, 'db' | 'organizationId' | 'key' | 'owner'>) {
  return held.db.updateTable('request_keys').where('organization_id', '=', held.organizationId).where('key', '=', held.key).where('owner', '=', held.owner);
}

function watchFor(held: Held): PlatformWriteWatch {
  return {
    async beforeWrite() {
      const now = held.now();
      held.firstCallAt ??= now;
      const marked = await rowOf(held).set({ call_started_at: held.firstCallAt, last_call_at: now, updated_at: now }).where('status', '=', 'running').executeTakeFirst();
      // Taken over by a retry that judged this request dead: it must not call the platform.
      if (marked.numUpdatedRows !== 1n) throw apiError('REQUEST_IN_PROGRESS', `Another request with this ${KEY_HEADER} took over; this one made no platform call`);
    },
    afterWrite(status) {
      if (status === null || status >= 500) held.unknown = true;
      else if (status < 400) held.made = true;
    },
  };
}

/** Stores the answer, or frees the key, once the answer is known (onSend). */
async function finish(held: Held, status: number, payload: unknown): Promise<void> {
  const now = held.now();
  const definite = status < 400 || (!held.unknown && held.made);
  if (definite) {
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '{}';
    await rowOf(held).set({ status: 'done', answer_status: status, answer_body: body, updated_at: now }).execute();
  } else if (held.unknown) {
    await rowOf(held).set({ status: 'interrupted', updated_at: now }).execute();
  } else {
    await held.db.deleteFrom('request_keys').where('organization_id', '=', held.organizationId).where('key', '=', held.key).where('owner', '=', held.owner).execute();
  }
}

const sendJson = (reply: FastifyReply, body: string) => reply.code(200).type('application/json; charset=utf-8').send(body);

const held = new WeakMap<FastifyRequest, Held>();

interface Route {
  operationId: string;
  handler: RouteHandlerMethod;
  operation: IdempotentOperation;
}

async function runIdempotent(instance: FastifyInstance, route: Route, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const { handler, operation, operationId } = route;
  const key = request.headers[KEY_HEADER];
  if (typeof key !== 'string') return handler.call(instance, request, reply);
  const { deps } = request.server;
  const { db } = deps.store;
  const organizationId = callerOf(request).organizationId;
  const hash = canonicalHash({ operation: operationId, params: request.params, query: request.query, body: request.body });
  const inFlightMs = deps.config.platformTimeoutMs + IN_FLIGHT_MARGIN_MS;
  const claim = await claimKey(db, { organizationId, key, operation: operationId, hash, now: deps.clock.now(), inFlightMs });
  let owner: string;
  if (claim.kind === 'replay') return sendJson(reply, claim.body);
  if (claim.kind === 'claimed') owner = claim.owner;
  else {
    const find = operation.find;
    if (!find && !operation.repeatable) {
      throw apiError(
        'REQUEST_OUTCOME_UNKNOWN',
        `The earlier request with this ${KEY_HEADER} was interrupted after its platform call began, so it may have been made; nothing was sent again. Check the platform, and send it with a new ${KEY_HEADER} if it is missing`,
      );
    }
    const taken = await takeOver(db, organizationId, key, claim, deps.clock.now(), !find);
    if (taken === null) throw inProgress();
    owner = taken;
    if (find) {
      const ref = { db, organizationId, key, owner };
      let found: unknown;
      try {
        found = await find(request, claim.since - CLOCK_SKEW_MS);
      } catch (error) {
        await rowOf(ref).set({ status: 'interrupted', updated_at: deps.clock.now() }).execute();
        throw error;
      }
      if (found !== null && found !== undefined) {
        const body = JSON.stringify(found);
        await rowOf(ref).set({ status: 'done', answer_status: 200, answer_body: body, updated_at: deps.clock.now() }).execute();
        return sendJson(reply, body);
      }
      // Nothing was made: the operation runs again, from a clean marker.
      await rowOf(ref).set({ call_started_at: null, last_call_at: null, updated_at: deps.clock.now() }).execute();
    }
  }
  const state: Held = { db, organizationId, key, owner, now: () => deps.clock.now(), firstCallAt: null, made: false, unknown: false };
  held.set(request, state);
  return watchPlatformWrites(watchFor(state), () => handler.call(instance, request, reply));
}

const KeyHeader = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Idempotency key, kept 24 hours: the same key and request answer the first answer again (200); a retry never writes to the platform twice.',
  }),
);

/** The route's schema with the header, a 200 for the replay of a 201 route, and the 409s. */
function declareKey(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const headers = schema.headers as { properties?: Record<string, TSchema> } | undefined;
  const response = { ...((schema.response as Record<string, TSchema> | undefined) ?? {}) };
  const created = response[201];
  if (created && !response[200]) response[200] = { ...created, description: `Replay of an earlier request with the same ${KEY_HEADER}.` };
  if (!response[409]) Object.assign(response, errorResponses(409));
  route.schema = { ...schema, headers: Type.Object({ ...(headers?.properties ?? {}), [KEY_HEADER]: KeyHeader }), response };
}

/** Makes every route registered on `api` after this with `config.idempotent` retry-safe. */
export function registerIdempotency(api: Api): void {
  api.addHook('onRoute', (route) => {
    const operation = route.config?.idempotent;
    if (!operation) return;
    const operationId = (route.schema as { operationId?: unknown } | undefined)?.operationId;
    const wrapped: Route = { operationId: typeof operationId === 'string' ? operationId : `${String(route.method)} ${route.url}`, handler: route.handler, operation };
    declareKey(route);
    route.handler = function idempotent(this: FastifyInstance, request, reply) {
      return runIdempotent(this, wrapped, request, reply);
    };
  });
  api.addHook('onSend', async (request, reply, payload) => {
    const state = held.get(request);
    if (!state) return payload;
    held.delete(request);
    await finish(state, reply.statusCode, payload);
    return payload;
  });
}

