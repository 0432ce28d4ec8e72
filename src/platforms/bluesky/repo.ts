// The account's repository at its PDS (bluesky.md §4–§6): records by the key the service chose,
// blobs, and the strong references (uri + cid) replies and quotes need.
import { PlatformError } from '../errors.ts';
import { obj, str, type Json } from '../json.ts';
import { isXrpcError, type Session, type Xrpc } from './xrpc.ts';

export const POST = 'app.bsky.feed.post';
export const THREADGATE = 'app.bsky.feed.threadgate';

export interface StrongRef {
  uri: string;
  cid: string;
}

export interface FoundRecord extends StrongRef {
  value: Json;
}

/** The parts of an at:// URI: the repo (a DID or a handle), the collection and the record key. */
export function parseAtUri(uri: string): { repo: string; collection: string; rkey: string } | null {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  return match ? { repo: match[1] ?? '', collection: match[2] ?? '', rkey: match[3] ?? '' } : null;
}

const strongRef = (body: Json, what: string): StrongRef => {
  const uri = str(body.uri);
  const cid = str(body.cid);
  if (!uri || !cid) throw new PlatformError('transient', `Bluesky answered the ${what} without its uri and cid`, { platform: 'bluesky' });
  return { uri, cid };
};

/** The record at the key, or null when the key is free (RecordNotFound). */
export async function getRecord(api: Xrpc, session: Session, repo: string, collection: string, rkey: string, now?: number): Promise<FoundRecord | null> {
  try {
    const body = await api.call(session.pds, 'com.atproto.repo.getRecord', { query: { repo, collection, rkey }, bearer: session.token, ...(now !== undefined ? { now } : {}) });
    return { ...strongRef(body, 'record'), value: obj(body.value) };
  } catch (error) {
    if (isXrpcError(error, 'RecordNotFound')) return null;
    throw error;
  }
}

export async function createRecord(api: Xrpc, session: Session, collection: string, rkey: string, record: Json, now?: number): Promise<StrongRef> {
  const body = await api.call(session.pds, 'com.atproto.repo.createRecord', { method: 'POST', json: { repo: session.did, collection, rkey, record }, bearer: session.token, ...(now !== undefined ? { now } : {}) });
  return strongRef(body, 'record');
}

/** Writes the record at the key whether or not one is there (thread gates). */
export async function putRecord(api: Xrpc, session: Session, collection: string, rkey: string, record: Json): Promise<StrongRef> {
  return strongRef(await api.call(session.pds, 'com.atproto.repo.putRecord', { method: 'POST', json: { repo: session.did, collection, rkey, record }, bearer: session.token }), 'record');
}

/** Deletes the record; a key already free is fine (the PDS answers it the same). */
export async function deleteRecord(api: Xrpc, session: Session, collection: string, rkey: string): Promise<void> {
  await api.call(session.pds, 'com.atproto.repo.deleteRecord', { method: 'POST', json: { repo: session.did, collection, rkey }, bearer: session.token });
}

/** Uploads bytes as a blob (content-addressed: the same bytes give the same ref); its blob object. */
export async function uploadBlob(api: Xrpc, session: Session, bytes: Uint8Array, mimeType: string, now?: number): Promise<Json> {
  const body = await api.call(session.pds, 'com.atproto.repo.uploadBlob', { method: 'POST', body: bytes, headers: { 'content-type': mimeType }, bearer: session.token, timeoutMs: 300_000, ...(now !== undefined ? { now } : {}) });
  const blob = obj(body.blob);
  if (!str(obj(blob.ref).$link)) throw new PlatformError('transient', 'Bluesky answered the upload without a blob', { platform: 'bluesky' });
  return blob;
}
