// The Images, Videos and Documents APIs (linkedin.md §6). initializeUpload names the owner (the
// post's author-to-be) and answers signed upload URLs on www.linkedin.com; the bytes are PUT there
// without the bearer token (a request that carries one is refused). Images and documents are one
// PUT; videos are PUT in parts of `settings.linkedin.videoPartBytes` (4 MB), each answered with
// an ETag, then finalizeUpload lists the ETags in order. An asset is AVAILABLE after processing
// (PROCESSING_FAILED when the bytes are not a type LinkedIn takes), and a post may use it only
// then, and only for its owner.
import { createHash } from 'node:crypto';
import type { RouteContext } from '../core/router.ts';
import { isRawBody } from '../core/body.ts';
import { obj } from '../core/control.ts';
import { sniff } from '../media/sniff.ts';
import { restAuth } from './auth.ts';
import { checkActor } from './acting.ts';
import { linkedinError } from './errors.ts';
import type { AssetKind, LinkedInAsset } from './store.ts';

const UPLOAD_TTL_MS = 24 * 3_600_000;
const PREFIX: Record<AssetKind, string> = { image: 'urn:li:image:', video: 'urn:li:video:', document: 'urn:li:document:' };

const invalid = (field: string, message: string) => linkedinError(422, `/${field}: ${message}`, { code: 'UNPROCESSABLE_ENTITY' });

function signature(uploadId: string): string {
  return createHash('sha256').update(`linkedin-upload:${uploadId}`).digest('hex').slice(0, 24);
}

function uploadUrl(ctx: RouteContext, urn: string, part: number): string {
  const id = ctx.state.ids.opaque('linkedin-upload', 20);
  ctx.state.linkedin.uploads.set(id, { urn, part });
  return `https://www.linkedin.com/dms-uploads/sp/${id}/uploaded?sig=${signature(id)}`;
}

function initialize(ctx: RouteContext, kind: AssetKind): { asset: LinkedInAsset; request: Record<string, unknown> } {
  const caller = restAuth(ctx, []);
  if (ctx.query.action !== 'initializeUpload') throw linkedinError(400, 'action must be initializeUpload', { code: 'ILLEGAL_ARGUMENT' });
  const request = obj(obj(ctx.body).initializeUploadRequest);
  const owner = typeof request.owner === 'string' ? request.owner : '';
  if (!owner) throw invalid('initializeUploadRequest/owner', 'required');
  checkActor(ctx.state, caller, owner, 'write', 'initializeUploadRequest/owner');
  const now = ctx.state.clock.now();
  const asset: LinkedInAsset = {
    urn: `${PREFIX[kind]}${kind === 'video' ? 'D4' : kind === 'image' ? 'C4' : 'D5'}${ctx.state.ids.opaque(`linkedin-${kind}`, 14)}`,
    kind,
    owner,
    status: 'WAITING_UPLOAD',
    size: 0,
    uploadToken: null,
    parts: [],
    uploadIds: [],
    uploadExpiresAt: now + UPLOAD_TTL_MS,
    readyAt: null,
    createdAt: now,
  };
  ctx.state.linkedin.assets.set(asset.urn, asset);
  return { asset, request };
}

/** POST /rest/images?action=initializeUpload and /rest/documents?action=initializeUpload. */
export function initializeSingle(kind: 'image' | 'document') {
  return (ctx: RouteContext): unknown => {
    const { asset } = initialize(ctx, kind);
    const url = uploadUrl(ctx, asset.urn, 0);
    return { value: { uploadUrlExpiresAt: asset.uploadExpiresAt, uploadUrl: url, [kind]: asset.urn } };
  };
}

/** POST /rest/videos?action=initializeUpload | finalizeUpload. */
export function videosAction(ctx: RouteContext): unknown {
  if (ctx.query.action === 'finalizeUpload') return finalizeVideo(ctx);
  const { asset, request } = initialize(ctx, 'video');
  const size = request.fileSizeBytes;
  if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) throw invalid('initializeUploadRequest/fileSizeBytes', 'a positive integer is required');
  const partBytes = ctx.state.settings.linkedin.videoPartBytes;
  asset.size = size;
  asset.uploadToken = ctx.state.ids.opaque('linkedin-video-token', 16);
  const instructions = [];
  for (let first = 0; first < size; first += partBytes) {
    const last = Math.min(size, first + partBytes) - 1;
    asset.parts.push({ firstByte: first, lastByte: last, etag: null });
    instructions.push({ uploadUrl: uploadUrl(ctx, asset.urn, asset.parts.length - 1), firstByte: first, lastByte: last });
  }
  return { value: { uploadUrlsExpireAt: asset.uploadExpiresAt, video: asset.urn, uploadInstructions: instructions, uploadToken: asset.uploadToken } };
}

function finalizeVideo(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, []);
  const request = obj(obj(ctx.body).finalizeUploadRequest);
  const asset = ctx.state.linkedin.assets.get(typeof request.video === 'string' ? request.video : '');
  if (!asset || asset.kind !== 'video') throw invalid('finalizeUploadRequest/video', 'unknown video');
  checkActor(ctx.state, caller, asset.owner, 'write', 'finalizeUploadRequest/video');
  if (request.uploadToken !== (asset.uploadToken ?? '')) throw invalid('finalizeUploadRequest/uploadToken', 'does not match the upload');
  const etags = Array.isArray(request.uploadedPartIds) ? request.uploadedPartIds.map(String) : [];
  const expected = asset.parts.map((p) => p.etag);
  if (expected.some((e) => e === null)) throw invalid('finalizeUploadRequest/uploadedPartIds', 'not every part was uploaded');
  if (etags.length !== expected.length || etags.some((e, i) => e !== expected[i])) throw invalid('finalizeUploadRequest/uploadedPartIds', 'the part ids do not match the uploaded parts, in order');
  asset.status = 'PROCESSING';
  asset.readyAt = ctx.state.clock.now() + ctx.state.settings.processing.linkedinVideoMs;
  return {};
}

const ACCEPTED: Record<AssetKind, (head: Buffer) => boolean> = {
  image: (head) => ['image/jpeg', 'image/png', 'image/gif'].includes(sniff(head)?.mime ?? ''),
  video: () => true,
  // PDF, or the Office formats (OOXML zip or the older OLE compound file).
  document: (head) => head.subarray(0, 4).toString('latin1') === '%PDF' || head.subarray(0, 2).toString('latin1') === 'PK' || head.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
};

/** PUT www.linkedin.com/dms-uploads/sp/{id}/uploaded?sig=…: the bytes, without the bearer token. */
export function upload(ctx: RouteContext): unknown {
  const id = ctx.params.id ?? '';
  const target = ctx.state.linkedin.uploads.get(id);
  if (!target || ctx.query.sig !== signature(id)) throw linkedinError(403, 'The upload URL is not valid', { code: 'FORBIDDEN' });
  if (ctx.request.headers.authorization) throw linkedinError(400, 'Upload URLs are signed: send the bytes without an Authorization header', { code: 'BAD_REQUEST' });
  const asset = ctx.state.linkedin.assets.get(target.urn);
  const now = ctx.state.clock.now();
  if (!asset || asset.uploadExpiresAt < now) throw linkedinError(403, 'The upload URL has expired', { code: 'FORBIDDEN' });
  const body = isRawBody(ctx.body) ? ctx.body : null;
  if (!body || body.size === 0) throw linkedinError(400, 'The upload has no bytes', { code: 'BAD_REQUEST' });
  if (asset.kind === 'video') {
    const part = asset.parts[target.part];
    if (!part) throw linkedinError(400, 'Unknown part', { code: 'BAD_REQUEST' });
    if (body.size !== part.lastByte - part.firstByte + 1) throw linkedinError(400, `The part must be bytes ${part.firstByte}-${part.lastByte} (${part.lastByte - part.firstByte + 1} bytes), not ${body.size}`, { code: 'BAD_REQUEST' });
    part.etag = `/ambry-video/signedId/${ctx.state.ids.opaque('linkedin-etag', 24)}`;
    return ctx.reply.status(200).header('etag', part.etag).send();
  }
  asset.size = body.size;
  const accepted = ACCEPTED[asset.kind](body.head);
  asset.status = accepted ? 'PROCESSING' : 'PROCESSING_FAILED';
  asset.readyAt = accepted ? now + ctx.state.settings.processing.linkedinImageMs : null;
  return ctx.reply.status(201).send();
}

/** The asset's status now (processing ends at readyAt). */
export function settle(ctx: RouteContext, asset: LinkedInAsset): LinkedInAsset {
  if (asset.status === 'PROCESSING' && asset.readyAt !== null && asset.readyAt <= ctx.state.clock.now()) asset.status = 'AVAILABLE';
  return asset;
}

/** GET /rest/images/{urn}, /rest/videos/{urn}, /rest/documents/{urn}. */
export function readAsset(kind: AssetKind) {
  return (ctx: RouteContext): unknown => {
    const caller = restAuth(ctx, []);
    const asset = ctx.state.linkedin.assets.get(ctx.params.urn ?? '');
    if (!asset || asset.kind !== kind) throw linkedinError(404, `${ctx.params.urn ?? ''} does not exist`, { code: 'NOT_FOUND' });
    checkActor(ctx.state, caller, asset.owner, 'write');
    settle(ctx, asset);
    return { id: asset.urn, owner: asset.owner, status: asset.status, ...(kind === 'video' ? { duration: 0 } : {}) };
  };
}

/** An asset a post names: the author's own and AVAILABLE, else 422 naming the field. */
export function availableAsset(ctx: RouteContext, urn: string, author: string, field: string): LinkedInAsset {
  const asset = ctx.state.linkedin.assets.get(urn);
  if (!asset) throw invalid(field, `${urn || 'an id'} is not an image, video or document`);
  if (asset.owner !== author) throw invalid(field, `${urn} belongs to another owner than the author`);
  if (settle(ctx, asset).status !== 'AVAILABLE') throw invalid(field, `${urn} is ${asset.status}, not AVAILABLE`);
  return asset;
}
