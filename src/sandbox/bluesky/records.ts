// com.atproto.repo.* (bluesky.md §4, §6): createRecord, putRecord, deleteRecord, getRecord and
// listRecords on the caller's own repository. `repo` is a DID or handle: unknown → 400 "Could not
// find repo", someone else's → 401 AuthenticationRequired (the PDS's createRecord). Keys: a TID
// made by the PDS when none is given; `app.bsky.feed.post`, `like`, `repost` and `graph.follow`
// take TIDs only; a gate's key is its post's (validate.ts). A key already taken answers what the live PDS
// answers today, 500 InternalServerError (the repository tree refuses the key; atproto PR #4728,
// which would name the error, is still open). Each write costs record-write points (limits.ts).
// A second like, repost or follow of the same subject replaces the first, as the PDS does.
import { obj } from '../core/control.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { blueskyAuth, type BlueskyCaller } from './sessions.ts';
import { isRecordKey, isTid, recordCid, tidOf } from './codec.ts';
import { authRequired, internalServerError, invalidRequest, xrpcError } from './errors.ts';
import { charge, requestPolicies, WRITE_POINTS, writePolicies } from './limits.ts';
import { findAccount, type BlueskyAccount } from './people.ts';
import type { RepoRecord } from './store.ts';
import { KNOWN_COLLECTIONS, validateRecord } from './validate.ts';

const TID_COLLECTIONS = ['app.bsky.feed.post', 'app.bsky.feed.like', 'app.bsky.feed.repost', 'app.bsky.graph.follow'];
const DEDUPED = ['app.bsky.feed.like', 'app.bsky.feed.repost', 'app.bsky.graph.follow'];

/** A fresh TID: the sandbox clock in microseconds, never below the last one. */
export function nextTid(state: SandboxState): string {
  const micros = Math.max(state.clock.now() * 1000, state.bluesky.lastTidMicros + 1);
  state.bluesky.lastTidMicros = micros;
  return tidOf(micros, 7);
}

export const atUri = (did: string, collection: string, rkey: string): string => `at://${did}/${collection}/${rkey}`;

function commit(state: SandboxState, did: string): { cid: string; rev: string } {
  const rev = nextTid(state);
  state.bluesky.revs.set(did, rev);
  return { cid: recordCid({ did, rev, version: 3 }), rev };
}

const nsid = (value: string): boolean => /^[a-zA-Z]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)+$/.test(value) && value.split('.').length >= 3;

/** The repository named by `repo`, which must be the caller's. */
function ownRepo(ctx: RouteContext, caller: BlueskyCaller, repo: unknown): BlueskyAccount {
  if (typeof repo !== 'string' || !repo) throw invalidRequest('Input must have the property "repo"');
  const account = findAccount(ctx.state, repo);
  if (!account) throw invalidRequest(`Could not find repo: ${repo}`);
  if (account.did !== caller.account.did) throw authRequired('Authentication Required');
  return account;
}

function collectionOf(value: unknown): string {
  if (typeof value !== 'string') throw invalidRequest('Input must have the property "collection"');
  if (!nsid(value)) throw invalidRequest('Input/collection must be a valid nsid');
  return value;
}

function checkKey(collection: string, rkey: string): void {
  if (!isRecordKey(rkey)) throw invalidRequest(`Invalid record key: ${rkey}`);
  if (TID_COLLECTIONS.includes(collection) && !isTid(rkey)) throw invalidRequest(`Invalid rkey for ${collection}: ${rkey} is not a TID`);
}

/**
 * Writes a record in a repository (the handlers and the control API's people), validated first;
 * `create`: the key must be free (else the 500 the PDS answers).
 */
export function writeRecord(state: SandboxState, did: string, collection: string, rkey: string, value: Record<string, unknown>, create = false): { record: RepoRecord; commit: { cid: string; rev: string }; valid: boolean } {
  const valid = validateRecord(state, did, collection, rkey, value);
  if (create && state.bluesky.records.has(atUri(did, collection, rkey))) throw internalServerError();
  if (DEDUPED.includes(collection)) {
    const subject = collection === 'app.bsky.graph.follow' ? value.subject : obj(value.subject).uri;
    for (const other of [...state.bluesky.records.values()]) {
      const otherSubject = collection === 'app.bsky.graph.follow' ? other.value.subject : obj(other.value.subject).uri;
      if (other.did === did && other.collection === collection && otherSubject === subject && other.rkey !== rkey) state.bluesky.records.delete(other.uri);
    }
  }
  const record: RepoRecord = { uri: atUri(did, collection, rkey), did, collection, rkey, cid: recordCid(value), value, indexedAt: state.clock.now() };
  state.bluesky.records.set(record.uri, record);
  return { record, commit: commit(state, did), valid };
}

function validateFlag(body: Record<string, unknown>): void {
  if (body.validate !== undefined && typeof body.validate !== 'boolean') throw invalidRequest('Input/validate must be a boolean');
}

function unknownLexicon(collection: string, body: Record<string, unknown>): void {
  if (body.validate === true && !KNOWN_COLLECTIONS.includes(collection)) throw invalidRequest(`Lexicon not found: lex:${collection}`);
}

/** POST com.atproto.repo.createRecord. */
export function createRecord(ctx: RouteContext): unknown {
  const caller = blueskyAuth(ctx);
  const body = obj(ctx.body);
  const account = ownRepo(ctx, caller, body.repo);
  const collection = collectionOf(body.collection);
  validateFlag(body);
  if (body.record === undefined) throw invalidRequest('Input must have the property "record"');
  if (body.rkey !== undefined && typeof body.rkey !== 'string') throw invalidRequest('Input/rkey must be a string');
  charge(ctx, writePolicies(ctx), account.did, WRITE_POINTS.create);
  const rkey = typeof body.rkey === 'string' ? body.rkey : nextTid(ctx.state);
  checkKey(collection, rkey);
  unknownLexicon(collection, body);
  const { record, commit, valid } = writeRecord(ctx.state, account.did, collection, rkey, body.record as Record<string, unknown>, true);
  return { uri: record.uri, cid: record.cid, commit, validationStatus: valid ? 'valid' : 'unknown' };
}

/** POST com.atproto.repo.putRecord: creates or replaces (threadgate updates). `swapRecord` guards the replaced cid. */
export function putRecord(ctx: RouteContext): unknown {
  const caller = blueskyAuth(ctx);
  const body = obj(ctx.body);
  const account = ownRepo(ctx, caller, body.repo);
  const collection = collectionOf(body.collection);
  validateFlag(body);
  if (typeof body.rkey !== 'string') throw invalidRequest('Input must have the property "rkey"');
  if (body.record === undefined) throw invalidRequest('Input must have the property "record"');
  const uri = atUri(account.did, collection, body.rkey);
  const existing = ctx.state.bluesky.records.get(uri);
  charge(ctx, writePolicies(ctx), account.did, existing ? WRITE_POINTS.update : WRITE_POINTS.create);
  checkKey(collection, body.rkey);
  unknownLexicon(collection, body);
  if (body.swapRecord !== undefined && (body.swapRecord === null ? existing !== undefined : existing?.cid !== body.swapRecord)) {
    throw invalidRequest(`Record was at ${existing?.cid ?? 'null'}`, 'InvalidSwap');
  }
  const { record, commit, valid } = writeRecord(ctx.state, account.did, collection, body.rkey, body.record as Record<string, unknown>);
  return { uri: record.uri, cid: record.cid, commit, validationStatus: valid ? 'valid' : 'unknown' };
}

/** POST com.atproto.repo.deleteRecord: idempotent (a missing record still answers a commit). */
export function deleteRecord(ctx: RouteContext): unknown {
  const caller = blueskyAuth(ctx);
  const body = obj(ctx.body);
  const account = ownRepo(ctx, caller, body.repo);
  const collection = collectionOf(body.collection);
  if (typeof body.rkey !== 'string') throw invalidRequest('Input must have the property "rkey"');
  charge(ctx, writePolicies(ctx), account.did, WRITE_POINTS.delete);
  const uri = atUri(account.did, collection, body.rkey);
  const existing = ctx.state.bluesky.records.get(uri);
  if (body.swapRecord !== undefined && existing?.cid !== body.swapRecord) throw invalidRequest(`Record was at ${existing?.cid ?? 'null'}`, 'InvalidSwap');
  if (!existing) return {};
  ctx.state.bluesky.records.delete(uri);
  return { commit: commit(ctx.state, account.did) };
}

/** GET com.atproto.repo.getRecord?repo&collection&rkey&cid (no auth needed). */
export function getRecord(ctx: RouteContext): unknown {
  charge(ctx, requestPolicies(ctx), 'client');
  const { repo, collection, rkey, cid } = ctx.query;
  if (!repo) throw invalidRequest('Params must have the property "repo"');
  if (!collection) throw invalidRequest('Params must have the property "collection"');
  if (!rkey) throw invalidRequest('Params must have the property "rkey"');
  const account = findAccount(ctx.state, repo);
  if (!account) throw invalidRequest(`Could not find repo: ${repo}`);
  const uri = atUri(account.did, collection, rkey);
  const record = ctx.state.bluesky.records.get(uri);
  if (!record || (cid && record.cid !== cid)) throw xrpcError(400, 'RecordNotFound', `Could not locate record: ${uri}`);
  return { uri, cid: record.cid, value: record.value };
}

/** GET com.atproto.repo.listRecords?repo&collection&limit&cursor&reverse: newest key first. */
export function listRecords(ctx: RouteContext): unknown {
  charge(ctx, requestPolicies(ctx), 'client');
  const { repo, collection } = ctx.query;
  if (!repo) throw invalidRequest('Params must have the property "repo"');
  if (!collection) throw invalidRequest('Params must have the property "collection"');
  const account = findAccount(ctx.state, repo);
  if (!account) throw invalidRequest(`Could not find repo: ${repo}`);
  const limit = ctx.query.limit === undefined ? 50 : Number(ctx.query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest('limit must be an integer from 1 to 100');
  const reverse = ctx.query.reverse === 'true';
  const cursor = ctx.query.cursor;
  const all = [...ctx.state.bluesky.records.values()]
    .filter((r) => r.did === account.did && r.collection === collection)
    .sort((a, b) => (a.rkey < b.rkey ? 1 : a.rkey > b.rkey ? -1 : 0));
  if (reverse) all.reverse();
  const after = cursor ? all.filter((r) => (reverse ? r.rkey > cursor : r.rkey < cursor)) : all;
  const page = after.slice(0, limit);
  const last = page.at(-1);
  return { records: page.map((r) => ({ uri: r.uri, cid: r.cid, value: r.value })), ...(last && after.length > limit ? { cursor: last.rkey } : {}) };
}
