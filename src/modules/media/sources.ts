// The three ways bytes arrive at POST /media: a multipart `file`, a URL the service fetches, or
// base64 in JSON. Each ends in storeUpload, so type checks and limits are the same for all.
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { ApiError, errors, formatField } from '../../http/errors.ts';
import { API_VERSION } from '../../http/openapi.ts';
import { assertText, textProblem } from '../../http/text-guard.ts';
import { unknownNameProblem } from '../../lib/closest-name.ts';
import { FetchFailedError, ResponseTooLargeError, safeFetch, UrlRefusedError, type SafeResponse } from '../../lib/safe-fetch.ts';
import { isMediaType, MEDIA_TYPES, type MediaType } from './detect.ts';
import { cleanFileName, discardUpload, mismatch, storeUpload, tooLarge, type StoredUpload } from './ingest.ts';

/** A URL fetch may take this long in all (a large video over a slow link). */
export const URL_FETCH_TIMEOUT_MS = 10 * 60_000;
/** Room for the multipart framing and the small fields around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** The parts a multipart upload takes. */
const MULTIPART_FIELDS = ['file', 'fileName', 'mimeType'];

export interface Upload {
  stored: StoredUpload;
  fileName: string;
}

function declaredType(field: string, value: unknown): MediaType {
  if (typeof value === 'string' && isMediaType(value)) return value;
  throw errors.invalid(field, `must be one of ${MEDIA_TYPES.join(', ')}`);
}

/** What a failed multipart stream means for the client. */
function explainMultipart(error: unknown): ApiError | null {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return errors.invalid('file', 'send one file per upload');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return errors.invalid('body', 'too many form fields');
    case 'FST_PROTO_VIOLATION':
      return errors.invalid('body', 'a form field has a forbidden name');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return errors.invalid('body', 'a form field declared as JSON is not valid JSON');
    case 'FST_MP_PREMATURE_CLOSE':
      return errors.invalid('file', 'the upload was interrupted');
    default:
      break;
  }
  if (error instanceof Error && /multipart|terminated early|Unexpected end/i.test(error.message)) {
    return errors.invalid('body', 'malformed multipart/form-data');
  }
  return null;
}

/** A form field the upload does not take is refused, as an unknown JSON field is (issue 29). */
function unknownField(name: string): ApiError {
  return errors.invalid(formatField('', [name]), unknownNameProblem('field', name, MULTIPART_FIELDS));
}

/**
 * multipart/form-data: the part `file`, and optional text fields `fileName` and `mimeType`. The
 * file is streamed to the store as it arrives. Fields may come before or after the file; a
 * mimeType that comes first is checked before any byte is stored.
 */
export async function fromMultipart(request: FastifyRequest, config: Config): Promise<Upload> {
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > config.mediaMaxBytes + MULTIPART_OVERHEAD) throw tooLarge('file', config.mediaMaxBytes);
  let declared: MediaType | null = null;
  let fileName: string | null = null;
  let partName: string | null = null;
  let stored: StoredUpload | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw errors.invalid(part.fieldname, 'too long');
        assertText(part.fieldname, part.value);
        if (part.fieldname === 'mimeType') declared = declaredType('mimeType', part.value);
        else if (part.fieldname === 'fileName') fileName = typeof part.value === 'string' ? part.value : null;
        else throw unknownField(part.fieldname);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw errors.invalid(part.fieldname, 'unexpected file; send the file as the field "file"');
      }
      if (textProblem(part.filename)) part.file.resume();
      assertText('file.filename', part.filename);
      partName = part.filename;
      stored = await storeUpload(config, { field: 'file', source: part.file, declared, explain: explainMultipart });
    }
    if (!stored) throw errors.invalid('file', 'required');
    if (declared !== null && declared !== stored.type) throw mismatch(declared, stored.type);
  } catch (error) {
    if (stored) await discardUpload(config, stored).catch(() => undefined);
    throw error instanceof ApiError ? error : (explainMultipart(error) ?? error);
  }
  return { stored, fileName: cleanFileName(fileName ?? partName, stored.type) };
}

function explainFetch(error: unknown): ApiError | null {
  if (error instanceof UrlRefusedError) return errors.invalid('url', `refused: ${error.message}`);
  if (error instanceof FetchFailedError) return errors.invalid('url', `fetch failed: ${error.message}`);
  if (error instanceof ResponseTooLargeError) return tooLarge('url', error.limit);
  return null;
}

/** The URL's last path segment, decoded; as it stands when its percent-encoding is not UTF-8 (%ZZ). */
function lastSegment(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** JSON {url}: fetched by the service under the guards of lib/safe-fetch.ts. */
export async function fromUrl(url: string, declared: MediaType | null, fileName: string | null, config: Config, signal: AbortSignal): Promise<Upload> {
  let response: SafeResponse;
  // The client leaving is not the URL's fault: say so, not "fetch failed".
  const gone = (error: unknown) => (signal.aborted ? errors.invalid('body', 'the client went away') : (explainFetch(error) ?? null));
  try {
    response = await safeFetch(url, {
      allowPrivate: config.allowPrivateUrls,
      maxBytes: config.mediaMaxBytes,
      timeoutMs: URL_FETCH_TIMEOUT_MS,
      headers: { 'user-agent': `socialapi-media/${API_VERSION}`, accept: 'image/*, video/*' },
      signal,
    });
  } catch (error) {
    throw gone(error) ?? error;
  }
  if (response.status < 200 || response.status > 299) {
    response.body.destroy();
    throw errors.invalid('url', `fetch failed: the server answered HTTP ${response.status}`);
  }
  const stored = await storeUpload(config, { field: 'url', source: response.body, declared, explain: gone });
  return { stored, fileName: cleanFileName(fileName ?? lastSegment(response.url), stored.type) };
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const DATA_URL = /^data:([^;,]*)(?:;[^,]*)?;base64,/;

/** JSON {base64}: plain or URL-safe base64, or a data: URL (whose type counts as declared). */
export async function fromBase64(text: string, declared: MediaType | null, fileName: string | null, config: Config): Promise<Upload> {
  let payload = text;
  let type = declared;
  const dataUrl = DATA_URL.exec(payload);
  if (dataUrl) {
    payload = payload.slice(dataUrl[0].length);
    if (type === null && dataUrl[1]) type = declaredType('base64', dataUrl[1]);
  }
  payload = payload.replace(/\s+/g, '');
  if (!BASE64.test(payload)) throw errors.invalid('base64', 'not valid base64');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > config.mediaMaxBytes) throw tooLarge('base64', config.mediaMaxBytes);
  const stored = await storeUpload(config, { field: 'base64', source: Readable.from([bytes]), declared: type });
  return { stored, fileName: cleanFileName(fileName, stored.type) };
}
