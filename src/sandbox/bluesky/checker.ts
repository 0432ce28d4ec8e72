// The lexicon validator's checks, worded as it words them (`Record/{path} must …`), for the records
// the sandbox validates (validate.ts, embeds.ts): a refusal is 400 InvalidRequest `Invalid
// {collection} record: …`. Strong refs must name a record that exists with that cid, and blobs
// must be this repository's as uploaded and within the embed's accept and maxSize, as the PDS
// checks them when the record is written.
import type { SandboxState } from '../core/state.ts';
import { parseAtUri } from './codec.ts';
import { invalidRecord, invalidRequest } from './errors.ts';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const graphemes = (text: string): number => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;
export const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');


/** Sizes as the PDS words them in BlobTooLarge (1,000,000 bytes is "976.56KB"). */
function prettySize(bytes: number): string {
  const kb = bytes / 1024;
  return kb < 1024 ? `${kb.toFixed(2)}KB` : `${(kb / 1024).toFixed(2)}MB`;
}

export class Checker {
  readonly #state: SandboxState;
  readonly #collection: string;
  readonly #did: string;

  constructor(state: SandboxState, collection: string, did: string) {
    this.#state = state;
    this.#collection = collection;
    this.#did = did;
  }

  fail(path: string, message: string): never {
    throw invalidRecord(this.#collection, `${path} ${message}`);
  }

  object(value: unknown, path: string): Json {
    if (!isObject(value)) this.fail(path, 'must be an object');
    return value;
  }

  required(record: Json, key: string, path: string): unknown {
    if (record[key] === undefined) throw invalidRecord(this.#collection, `${path} must have the property "${key}"`);
    return record[key];
  }

  string(value: unknown, path: string, limits: { maxBytes?: number; maxGraphemes?: number } = {}): string {
    if (typeof value !== 'string') this.fail(path, 'must be a string');
    if (limits.maxBytes !== undefined && bytes(value) > limits.maxBytes) this.fail(path, `must not be longer than ${limits.maxBytes} characters`);
    if (limits.maxGraphemes !== undefined && graphemes(value) > limits.maxGraphemes) this.fail(path, `must not be longer than ${limits.maxGraphemes} graphemes`);
    return value;
  }

  datetime(value: unknown, path: string): string {
    const text = this.string(value, path);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text) || Number.isNaN(Date.parse(text))) {
      this.fail(path, 'must be an valid atproto datetime (both RFC-3339 and ISO-8601)');
    }
    return text;
  }

  integer(value: unknown, path: string, minimum = 0): number {
    if (typeof value !== 'number' || !Number.isInteger(value)) this.fail(path, 'must be an integer');
    if (value < minimum) this.fail(path, `can not be less than ${minimum}`);
    return value;
  }

  array(value: unknown, path: string, limits: { min?: number; max?: number } = {}): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    if (limits.max !== undefined && value.length > limits.max) this.fail(path, `must not have more than ${limits.max} elements`);
    if (limits.min !== undefined && value.length < limits.min) this.fail(path, `must not have fewer than ${limits.min} elements`);
    return value;
  }

  uri(value: unknown, path: string): string {
    const text = this.string(value, path);
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(text)) this.fail(path, 'must be a uri');
    return text;
  }

  /** A strong ref `{uri, cid}` of a record that exists with that cid. */
  strongRef(value: unknown, path: string, collection?: string): Json {
    const ref = this.object(value, path);
    const uri = this.string(this.required(ref, 'uri', path), `${path}/uri`);
    const cid = this.string(this.required(ref, 'cid', path), `${path}/cid`);
    const parsed = parseAtUri(uri);
    if (!parsed) this.fail(`${path}/uri`, 'must be a valid at-uri');
    const record = this.#state.bluesky.records.get(uri);
    if (!record || (collection && record.collection !== collection)) this.fail(`${path}/uri`, `names no ${collection ?? 'record'} the sandbox knows (${uri})`);
    if (record.cid !== cid) this.fail(`${path}/cid`, `is not the cid of ${uri} (${record.cid})`);
    return ref;
  }

  /** A blob ref this repository uploaded, of an accepted type and within maxSize. */
  blob(value: unknown, path: string, accept: (mime: string) => boolean, acceptText: string, maxSize: number): void {
    const ref = this.object(value, path);
    if (ref.$type !== 'blob' || !isObject(ref.ref) || typeof ref.ref.$link !== 'string' || typeof ref.mimeType !== 'string' || typeof ref.size !== 'number') {
      this.fail(path, 'should be a blob ref');
    }
    const cid = ref.ref.$link;
    const stored = this.#state.bluesky.blobs.get(cid);
    if (!stored || !stored.owners.includes(this.#did)) throw invalidRequest(`Could not find blob: ${cid}`, 'BlobNotFound');
    if (ref.mimeType !== stored.mimeType) throw invalidRequest(`Referenced Mimetype does not match stored blob. Expected: ${stored.mimeType}, Got: ${ref.mimeType}`, 'InvalidMimeType');
    if (ref.size !== stored.size) throw invalidRequest(`Referenced Size does not match stored blob. Expected: ${stored.size}, Got: ${ref.size}`, 'InvalidSize');
    if (!accept(stored.mimeType)) throw invalidRequest(`Wrong type of file. It is ${stored.mimeType} but it must match ${acceptText}.`, 'InvalidMimeType');
    if (stored.size > maxSize) throw invalidRequest(`This file is too large. It is ${prettySize(stored.size)} but the maximum size is ${prettySize(maxSize)}.`, 'BlobTooLarge');
  }

  /** The repository's post of this rkey must exist (a gate has its post's key). */
  postExists(uri: string, path: string): void {
    if (!this.#state.bluesky.records.has(uri)) this.fail(path, `names no post of this repository (${uri}): a gate's rkey is its post's rkey`);
  }

  aspectRatio(value: unknown, path: string): void {
    if (value === undefined) return;
    const ratio = this.object(value, path);
    this.integer(this.required(ratio, 'width', path), `${path}/width`, 1);
    this.integer(this.required(ratio, 'height', path), `${path}/height`, 1);
  }
}
