// Uploading media to LinkedIn (linkedin.md §6): initializeUpload with the author as owner, the
// bytes PUT to the signed URL without the bearer token, and for videos one PUT per part of the
// upload instructions, each answer's ETag kept, then finalizeUpload with the ETags in order. The
// asset is usable once LinkedIn reports it AVAILABLE; PROCESSING_FAILED is final.
import { PlatformError } from '../errors.ts';
import type { MediaFetcher } from '../media-bytes.ts';
import { list, numberOf, obj, text } from '../json.ts';
import { linkedinBody, urnPath, type LinkedInApi } from './api.ts';

export type AssetKind = 'image' | 'video' | 'document';
const COLLECTION: Record<AssetKind, string> = { image: 'images', video: 'videos', document: 'documents' };

export interface Uploader {
  /** Uploads the file at `url` as `owner`: the asset URN (not yet AVAILABLE, perhaps). */
  upload(kind: AssetKind, url: string, owner: string, token: string): Promise<string>;
  /** LinkedIn's status of the asset: AVAILABLE, PROCESSING, WAITING_UPLOAD or PROCESSING_FAILED. */
  status(kind: AssetKind, urn: string, token: string): Promise<string>;
}

export function linkedinUploader(api: LinkedInApi, media: MediaFetcher | undefined): Uploader {
  const put = async (uploadUrl: string, bytes: Uint8Array) => {
    // Signed URL: no Authorization header (linkedin.md §10).
    const response = await api.http.send('linkedin', { method: 'PUT', url: uploadUrl, body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    linkedinBody(response);
    return response;
  };
  return {
    async upload(kind, url, owner, token) {
      if (!media) throw new PlatformError('permanent', 'this service was built without media fetching', { platform: 'linkedin' });
      const { bytes } = await media.fetch(url, 'linkedin');
      const request = kind === 'video' ? { owner, fileSizeBytes: bytes.length, uploadCaptions: false, uploadThumbnail: false } : { owner };
      const value = obj((await api.restJson({ method: 'POST', path: `/${COLLECTION[kind]}`, token, query: { action: 'initializeUpload' }, json: { initializeUploadRequest: request } })).value);
      const urn = text(value[kind]);
      if (!urn) throw new PlatformError('transient', `initializeUpload named no ${kind}`, { platform: 'linkedin' });
      if (kind !== 'video') {
        await put(text(value.uploadUrl), bytes);
        return urn;
      }
      const etags: string[] = [];
      for (const instruction of list(value.uploadInstructions).map(obj)) {
        const first = numberOf(instruction.firstByte) ?? 0;
        const last = numberOf(instruction.lastByte) ?? bytes.length - 1;
        const response = await put(text(instruction.uploadUrl), bytes.subarray(first, last + 1));
        const etag = response.headers.get('etag');
        if (!etag) throw new PlatformError('transient', 'a video part was accepted without an ETag', { platform: 'linkedin' });
        etags.push(etag);
      }
      await api.rest({ method: 'POST', path: '/videos', token, query: { action: 'finalizeUpload' }, json: { finalizeUploadRequest: { video: urn, uploadToken: text(value.uploadToken), uploadedPartIds: etags } } });
      return urn;
    },
    async status(kind, urn, token) {
      return text((await api.restJson({ path: `/${COLLECTION[kind]}/${urnPath(urn)}`, token })).status);
    },
  };
}
