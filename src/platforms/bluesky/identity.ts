// Who an account is and where it lives (bluesky.md §1): a handle becomes a DID through
// com.atproto.identity.resolveHandle at the entryway (BLUESKY_ENTRYWAY), and a DID becomes its PDS
// through the DID document's `#atproto_pds` service (plc.directory for did:plc, the host's
// /.well-known/did.json for did:web). Sessions, records and blobs are then the PDS's.
import { PlatformError } from '../errors.ts';
import { list, obj, str, text } from '../json.ts';
import type { Xrpc } from './xrpc.ts';

export const DID_PATTERN = /^did:(plc:[a-z2-7]{24}|web:[a-zA-Z0-9.%-]+)$/;
/** A handle is a domain name of at least two labels (atproto.com specs/handle). */
export const HANDLE_PATTERN = /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

/** The handle's DID, or null when no account has it (the entryway cannot resolve it). */
export async function resolveHandle(api: Xrpc, entryway: string, handle: string): Promise<string | null> {
  try {
    return str((await api.call(entryway, 'com.atproto.identity.resolveHandle', { query: { handle } })).did);
  } catch (error) {
    // The reference PDS answers 400 InvalidRequest "Unable to resolve handle"; other servers name it
    // UnableToResolveHandle or HandleNotFound. Any 400 is about the handle, so it resolves to no one.
    if (error instanceof PlatformError && error.details.status === 400) return null;
    throw error;
  }
}

/** Where a DID's document is published. */
export function didDocumentUrl(did: string): string {
  if (did.startsWith('did:plc:')) return `https://plc.directory/${did}`;
  const host = decodeURIComponent(did.slice('did:web:'.length));
  return `https://${host}/.well-known/did.json`;
}

/** The PDS (an https origin) of a DID, from its document; null when the DID has no document or no PDS. */
export async function pdsOf(api: Xrpc, did: string): Promise<string | null> {
  // A did:web document is served by a host its owner chose (http.ts guards such calls).
  const response = await api.http.send('bluesky', { url: didDocumentUrl(did), ...(did.startsWith('did:web:') ? { userChosenHost: true as const } : {}) });
  if (response.status === 404 || response.status === 410) return null;
  if (response.status >= 500) throw new PlatformError('transient', `the DID document of ${did} answered HTTP ${response.status}`, { platform: 'bluesky', status: response.status });
  if (response.status >= 300) throw new PlatformError('permanent', `the DID document of ${did} answered HTTP ${response.status}`, { platform: 'bluesky', status: response.status });
  const service = list(obj(response.body).service)
    .map(obj)
    .find((s) => text(s.id).endsWith('#atproto_pds'));
  const endpoint = str(service?.serviceEndpoint);
  if (!endpoint) return null;
  try {
    const url = new URL(endpoint);
    return url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
