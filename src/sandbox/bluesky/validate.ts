// Lexicon validation of the records the sandbox knows (bluesky.md §4, §6; lexicons
// app/bsky/feed/post.json, embed/*.json, feed/like.json, feed/threadgate.json): a refusal is 400
// InvalidRequest `Invalid {collection} record: Record/{path} …`, the PDS's wording. Beyond the
// lexicon, as DESIGN asks, the sandbox refuses what the AppView would silently drop: facets that do
// not land on the text, and strong refs (replies, quotes, likes) to records that do not exist or
// whose cid differs. Blobs are checked as the PDS checks them when the record is written:
// uploaded by this repository (BlobNotFound), the same mimeType and size as uploaded
// (InvalidMimeType, InvalidSize), and within the embed's `accept` and `maxSize`.
import type { SandboxState } from '../core/state.ts';
import { isDid, parseAtUri } from './codec.ts';
import { invalidRecord, invalidRequest } from './errors.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const graphemes = (text: string): number => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export const SELF_LABELS = ['sexual', 'nudity', 'porn', 'graphic-media'] as const;
const IMAGE_MAX_BYTES = 1_000_000;
const VIDEO_MAX_BYTES = 100_000_000;

/** Sizes as the PDS words them in BlobTooLarge (1,000,000 bytes is "976.56KB"). */
function prettySize(bytes: number): string {
  const kb = bytes / 1024;
  return kb < 1024 ? `${kb.toFixed(2)}KB` : `${(kb / 1024).toFixed(2)}MB`;
}

class Checker {
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

/** The strong refs a post points at, for its notifications and counts. */
export function quotedUri(embed: unknown): string | null {
  if (!isObject(embed)) return null;
  if (embed.$type === 'app.bsky.embed.record' && isObject(embed.record)) return typeof embed.record.uri === 'string' ? embed.record.uri : null;
  if (embed.$type === 'app.bsky.embed.recordWithMedia' && isObject(embed.record) && isObject(embed.record.record)) {
    return typeof embed.record.record.uri === 'string' ? embed.record.record.uri : null;
  }
  return null;
}

function checkFacets(c: Checker, value: unknown, text: string): void {
  const facets = c.array(value, 'Record/facets');
  const length = bytes(text);
  const encoded = Buffer.from(text, 'utf8');
  // A byte offset on a character boundary: not inside a multi-byte sequence (10xxxxxx bytes).
  const boundary = (offset: number) => offset === length || ((encoded[offset] ?? 0) & 0xc0) !== 0x80;
  facets.forEach((item, i) => {
    const path = `Record/facets/${i}`;
    const facet = c.object(item, path);
    const index = c.object(c.required(facet, 'index', path), `${path}/index`);
    const start = c.integer(c.required(index, 'byteStart', `${path}/index`), `${path}/index/byteStart`);
    const end = c.integer(c.required(index, 'byteEnd', `${path}/index`), `${path}/index/byteEnd`);
    if (start >= end) c.fail(`${path}/index`, `byteStart ${start} must be before byteEnd ${end}`);
    if (end > length) c.fail(`${path}/index/byteEnd`, `${end} is past the end of the text (${length} UTF-8 bytes)`);
    if (!boundary(start) || !boundary(end)) c.fail(`${path}/index`, `${start}–${end} must fall on character boundaries of the UTF-8 text`);
    const features = c.array(c.required(facet, 'features', path), `${path}/features`, { min: 1 });
    features.forEach((raw, j) => {
      const fpath = `${path}/features/${j}`;
      const feature = c.object(raw, fpath);
      switch (feature.$type) {
        case 'app.bsky.richtext.facet#link':
          c.uri(c.required(feature, 'uri', fpath), `${fpath}/uri`);
          break;
        case 'app.bsky.richtext.facet#mention': {
          const did = c.string(c.required(feature, 'did', fpath), `${fpath}/did`);
          if (!isDid(did)) c.fail(`${fpath}/did`, 'must be a valid did');
          break;
        }
        case 'app.bsky.richtext.facet#tag':
          c.string(c.required(feature, 'tag', fpath), `${fpath}/tag`, { maxBytes: 640, maxGraphemes: 64 });
          break;
        default:
          c.fail(`${fpath}`, 'must be an object which includes the "$type" property (app.bsky.richtext.facet#link, #mention or #tag)');
      }
    });
  });
}

const isImage = (mime: string) => mime.startsWith('image/');

function checkImages(c: Checker, embed: Json, path: string): void {
  const images = c.array(c.required(embed, 'images', path), `${path}/images`, { min: 1, max: 4 });
  images.forEach((raw, i) => {
    const ipath = `${path}/images/${i}`;
    const image = c.object(raw, ipath);
    c.blob(c.required(image, 'image', ipath), `${ipath}/image`, isImage, 'image/*', IMAGE_MAX_BYTES);
    c.string(c.required(image, 'alt', ipath), `${ipath}/alt`);
    c.aspectRatio(image.aspectRatio, `${ipath}/aspectRatio`);
  });
}

function checkVideo(c: Checker, embed: Json, path: string): void {
  c.blob(c.required(embed, 'video', path), `${path}/video`, (m) => m === 'video/mp4', 'video/mp4', VIDEO_MAX_BYTES);
  if (embed.alt !== undefined) c.string(embed.alt, `${path}/alt`, { maxBytes: 10_000, maxGraphemes: 1000 });
  if (embed.captions !== undefined) c.array(embed.captions, `${path}/captions`, { max: 20 });
  c.aspectRatio(embed.aspectRatio, `${path}/aspectRatio`);
}

function checkExternal(c: Checker, embed: Json, path: string): void {
  const external = c.object(c.required(embed, 'external', path), `${path}/external`);
  c.uri(c.required(external, 'uri', `${path}/external`), `${path}/external/uri`);
  c.string(c.required(external, 'title', `${path}/external`), `${path}/external/title`);
  c.string(c.required(external, 'description', `${path}/external`), `${path}/external/description`);
  if (external.thumb !== undefined) c.blob(external.thumb, `${path}/external/thumb`, isImage, 'image/*', IMAGE_MAX_BYTES);
}

function checkEmbed(c: Checker, value: unknown): void {
  const path = 'Record/embed';
  const embed = c.object(value, path);
  switch (embed.$type) {
    case 'app.bsky.embed.images':
      return checkImages(c, embed, path);
    case 'app.bsky.embed.video':
      return checkVideo(c, embed, path);
    case 'app.bsky.embed.external':
      return checkExternal(c, embed, path);
    case 'app.bsky.embed.record':
      c.strongRef(c.required(embed, 'record', path), `${path}/record`, 'app.bsky.feed.post');
      return;
    case 'app.bsky.embed.recordWithMedia': {
      const record = c.object(c.required(embed, 'record', path), `${path}/record`);
      c.strongRef(c.required(record, 'record', `${path}/record`), `${path}/record/record`, 'app.bsky.feed.post');
      const media = c.object(c.required(embed, 'media', path), `${path}/media`);
      if (media.$type === 'app.bsky.embed.images') return checkImages(c, media, `${path}/media`);
      if (media.$type === 'app.bsky.embed.video') return checkVideo(c, media, `${path}/media`);
      if (media.$type === 'app.bsky.embed.external') return checkExternal(c, media, `${path}/media`);
      return c.fail(`${path}/media`, 'must be an object which includes the "$type" property (app.bsky.embed.images, video or external)');
    }
    default:
      c.fail(path, 'must be an object which includes the "$type" property (app.bsky.embed.images, video, external, record or recordWithMedia)');
  }
}

function checkPost(c: Checker, record: Json): void {
  const text = c.string(c.required(record, 'text', 'Record'), 'Record/text', { maxBytes: 3000, maxGraphemes: 300 });
  c.datetime(c.required(record, 'createdAt', 'Record'), 'Record/createdAt');
  if (record.langs !== undefined) {
    c.array(record.langs, 'Record/langs', { max: 3 }).forEach((lang, i) => {
      const tag = c.string(lang, `Record/langs/${i}`);
      if (!/^[a-zA-Z]{2,8}(-[a-zA-Z0-9]{1,8})*$/.test(tag)) c.fail(`Record/langs/${i}`, 'must be a well-formed BCP 47 language tag');
    });
  }
  if (record.facets !== undefined) checkFacets(c, record.facets, text);
  if (record.reply !== undefined) {
    const reply = c.object(record.reply, 'Record/reply');
    c.strongRef(c.required(reply, 'root', 'Record/reply'), 'Record/reply/root', 'app.bsky.feed.post');
    c.strongRef(c.required(reply, 'parent', 'Record/reply'), 'Record/reply/parent', 'app.bsky.feed.post');
  }
  if (record.embed !== undefined) checkEmbed(c, record.embed);
  if (record.labels !== undefined) {
    const labels = c.object(record.labels, 'Record/labels');
    if (labels.$type !== 'com.atproto.label.defs#selfLabels') c.fail('Record/labels', 'must be an object which includes the "$type" property (com.atproto.label.defs#selfLabels)');
    c.array(c.required(labels, 'values', 'Record/labels'), 'Record/labels/values', { max: 10 }).forEach((raw, i) => {
      const value = c.object(raw, `Record/labels/values/${i}`);
      const val = c.string(c.required(value, 'val', `Record/labels/values/${i}`), `Record/labels/values/${i}/val`, { maxBytes: 128 });
      if (!(SELF_LABELS as readonly string[]).includes(val)) c.fail(`Record/labels/values/${i}/val`, `must be one of ${SELF_LABELS.join(', ')}`);
    });
  }
  if (record.tags !== undefined) c.array(record.tags, 'Record/tags', { max: 8 }).forEach((t, i) => c.string(t, `Record/tags/${i}`, { maxBytes: 640, maxGraphemes: 64 }));
}

function checkSubject(c: Checker, record: Json): void {
  c.strongRef(c.required(record, 'subject', 'Record'), 'Record/subject');
  c.datetime(c.required(record, 'createdAt', 'Record'), 'Record/createdAt');
}

const RULES = ['app.bsky.feed.threadgate#mentionRule', 'app.bsky.feed.threadgate#followerRule', 'app.bsky.feed.threadgate#followingRule', 'app.bsky.feed.threadgate#listRule'];

/** A gate's post must be the repository's post of the same rkey. */
function checkGatedPost(c: Checker, record: Json, did: string, rkey: string): void {
  const uri = c.string(c.required(record, 'post', 'Record'), 'Record/post');
  if (uri !== `at://${did}/app.bsky.feed.post/${rkey}`) c.fail('Record/post', `must be the post of this record's key (at://${did}/app.bsky.feed.post/${rkey})`);
  c.postExists(uri, 'Record/post');
  c.datetime(c.required(record, 'createdAt', 'Record'), 'Record/createdAt');
}

function checkThreadgate(c: Checker, record: Json, did: string, rkey: string): void {
  checkGatedPost(c, record, did, rkey);
  if (record.allow !== undefined) {
    c.array(record.allow, 'Record/allow', { max: 5 }).forEach((raw, i) => {
      const rule = c.object(raw, `Record/allow/${i}`);
      if (!RULES.includes(String(rule.$type))) c.fail(`Record/allow/${i}`, `must be an object which includes the "$type" property (${RULES.join(', ')})`);
      if (rule.$type === RULES[3]) c.string(c.required(rule, 'list', `Record/allow/${i}`), `Record/allow/${i}/list`);
    });
  }
  if (record.hiddenReplies !== undefined) c.array(record.hiddenReplies, 'Record/hiddenReplies', { max: 300 }).forEach((u, i) => c.string(u, `Record/hiddenReplies/${i}`));
}

function checkPostgate(c: Checker, record: Json, did: string, rkey: string): void {
  checkGatedPost(c, record, did, rkey);
  if (record.embeddingRules !== undefined) c.array(record.embeddingRules, 'Record/embeddingRules', { max: 5 });
  if (record.detachedEmbeddingUris !== undefined) c.array(record.detachedEmbeddingUris, 'Record/detachedEmbeddingUris', { max: 50 });
}

function checkFollow(c: Checker, record: Json): void {
  const subject = c.string(c.required(record, 'subject', 'Record'), 'Record/subject');
  if (!isDid(subject)) c.fail('Record/subject', 'must be a valid did');
  c.datetime(c.required(record, 'createdAt', 'Record'), 'Record/createdAt');
}

/** The collections the sandbox knows the lexicon of; others are taken as `unknown`. */
export const KNOWN_COLLECTIONS = ['app.bsky.feed.post', 'app.bsky.feed.like', 'app.bsky.feed.repost', 'app.bsky.feed.threadgate', 'app.bsky.feed.postgate', 'app.bsky.graph.follow'];

/** Validates a record of a known collection; false when the collection is not one (validationStatus unknown). */
export function validateRecord(state: SandboxState, did: string, collection: string, rkey: string, value: unknown): boolean {
  if (!isObject(value)) throw invalidRequest('Input/record must be an object');
  // The lexicon validator's words: a $type is required, and must be the collection's.
  if (typeof value.$type !== 'string') throw invalidRecord(collection, 'Record/$type must be a string');
  if (value.$type !== collection) throw invalidRequest(`Invalid $type: expected ${collection}, got ${value.$type}`);
  const c = new Checker(state, collection, did);
  switch (collection) {
    case 'app.bsky.feed.post':
      checkPost(c, value);
      return true;
    case 'app.bsky.feed.like':
    case 'app.bsky.feed.repost':
      checkSubject(c, value);
      return true;
    case 'app.bsky.feed.threadgate':
      checkThreadgate(c, value, did, rkey);
      return true;
    case 'app.bsky.feed.postgate':
      checkPostgate(c, value, did, rkey);
      return true;
    case 'app.bsky.graph.follow':
      checkFollow(c, value);
      return true;
    default:
      return false;
  }
}
