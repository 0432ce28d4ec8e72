// com.atproto.repo.uploadBlob (bluesky.md §5): the raw bytes with their Content-Type → a blob ref,
// content-addressed (the same bytes give the same ref: the CID is the bytes' sha-256). The type is
// the bytes' own when the sandbox recognises them (the PDS sniffs too), else the declared one.
// Over the PDS's cap (`bluesky.maxBlobBytes`, 50 MiB) → 413 PayloadTooLarge. Blobs are kept as
// metadata only, with the repositories that uploaded them (a record may use a blob only in those).
import { isRawBody } from '../core/body.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { sniff } from '../media/sniff.ts';
import { blobCid } from './codec.ts';
import { invalidRequest, xrpcError } from './errors.ts';
import { blueskyAuth } from './sessions.ts';
import type { StoredBlob } from './store.ts';

export const blobRef = (blob: StoredBlob) => ({ $type: 'blob', ref: { $link: blob.cid }, mimeType: blob.mimeType, size: blob.size });

/** Keeps a blob for a repository: the same bytes keep one entry, with every uploader. */
export function keepBlob(state: SandboxState, did: string, sha256: string, mimeType: string, size: number): StoredBlob {
  const cid = blobCid(sha256);
  const blob = state.bluesky.blobs.get(cid) ?? { cid, mimeType, size, owners: [] };
  if (!blob.owners.includes(did)) blob.owners.push(did);
  state.bluesky.blobs.set(cid, blob);
  return blob;
}

export function uploadBlob(ctx: RouteContext): unknown {
  const { account } = blueskyAuth(ctx);
  const body = ctx.body;
  if (!isRawBody(body) || body.size === 0) throw invalidRequest('Request encoding (Content-Type) required but not provided');
  if (body.size > ctx.state.settings.bluesky.maxBlobBytes) throw xrpcError(413, 'PayloadTooLarge', 'request entity too large');
  const declared = (ctx.request.headers['content-type'] ?? 'application/octet-stream').split(';')[0]?.trim() ?? 'application/octet-stream';
  const mimeType = sniff(body.head)?.mime ?? declared;
  return { blob: blobRef(keepBlob(ctx.state, account.did, body.sha256, mimeType, body.size)) };
}
