// Lexicon validation of the records the sandbox knows (bluesky.md §4, §6; lexicons
// app/bsky/feed/post.json, embed/*.json, feed/like.json, feed/threadgate.json): a refusal is 400
// InvalidRequest `Invalid {collection} record: Record/{path} …`, the PDS's wording. Beyond the
// lexicon, as DESIGN asks, the sandbox refuses what the AppView would silently drop: facets that do
// not land on the text, and strong refs (replies, quotes, likes) to records that do not exist or
// whose cid differs. Blobs are checked as the PDS checks them when the record is written:
// uploaded by this repository (BlobNotFound), the same mimeType and size as uploaded
// (InvalidMimeType, InvalidSize), and within the embed's `accept` and `maxSize`.
import type { SandboxState } from '../core/state.ts';
import { Checker, bytes, isObject, type Json } from './checker.ts';
import { isDid } from './codec.ts';
import { checkEmbed } from './embeds.ts';
import { invalidRecord, invalidRequest } from './errors.ts';

export const SELF_LABELS = ['sexual', 'nudity', 'porn', 'graphic-media'] as const;

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
