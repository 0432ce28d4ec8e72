// Bluesky's text (bluesky.md §4, §9): its length in graphemes (Intl.Segmenter) and UTF-8 bytes,
// and the rich-text facets the service makes from it — links, @handle mentions and #tags — each
// at its UTF-8 byte range, never a JS string index (an emoji or an accent before a link moves
// the bytes, not the characters, of what follows).
import { Buffer } from 'node:buffer';
import { BSKY_TEXT_BYTES, BSKY_TEXT_GRAPHEMES } from './options.ts';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export const graphemes = (text: string): number => {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
};

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Why a post's text is too long for Bluesky, or null. */
export function textProblem(text: string): string | null {
  const count = graphemes(text);
  if (count > BSKY_TEXT_GRAPHEMES) return `${count} graphemes, Bluesky allows ${BSKY_TEXT_GRAPHEMES}`;
  const bytes = utf8Bytes(text);
  return bytes > BSKY_TEXT_BYTES ? `${bytes} UTF-8 bytes, Bluesky allows ${BSKY_TEXT_BYTES}` : null;
}

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}

/** Something in the text that may become a facet (a mention once its handle resolves). */
export type FacetCandidate = { byteStart: number; byteEnd: number } & ({ kind: 'link'; uri: string } | { kind: 'mention'; handle: string } | { kind: 'tag'; tag: string });

/** Punctuation that ends a sentence rather than a link or a tag. */
const TRAILING = /[.,;:!?'"»)\]}…]+$/u;
const count = (text: string, ch: string) => text.split(ch).length - 1;

/** A link without the sentence's punctuation after it; a `)` closing a `(` of the link stays (wiki links). */
function trimLink(uri: string): string {
  let out = uri;
  for (;;) {
    const last = out.at(-1) ?? '';
    if (!/[.,;:!?'"»)\]}…]/u.test(last) || (last === ')' && count(out, '(') >= count(out, ')'))) return out;
    out = out.slice(0, -1);
  }
}
const LINK = /(^|[\s(])(https?:\/\/[^\s<>"]+)/giu;
const MENTION = /(^|[\s(])@(([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)/gu;
const TAG = /(^|\s)[#＃]([^\s#＃]+)/gu;
/** The lexicon's tag limit: 64 graphemes (640 bytes). */
const TAG_MAX = 64;

/** The UTF-8 byte range of `length` UTF-16 units at `start` (JS indexes turned into byte offsets). */
function range(text: string, start: number, length: number): { byteStart: number; byteEnd: number } {
  const byteStart = utf8Bytes(text.slice(0, start));
  return { byteStart, byteEnd: byteStart + utf8Bytes(text.slice(start, start + length)) };
}

/** Links, mentions and tags of the text, in order, none overlapping. */
export function facetCandidates(text: string): FacetCandidate[] {
  const found: Array<FacetCandidate & { at: number; end: number }> = [];
  for (const m of text.matchAll(LINK)) {
    const uri = trimLink(m[2] ?? '');
    const at = (m.index ?? 0) + (m[1] ?? '').length;
    if (uri.length > 'https://'.length) found.push({ kind: 'link', uri, at, end: at + uri.length, ...range(text, at, uri.length) });
  }
  for (const m of text.matchAll(MENTION)) {
    const handle = (m[2] ?? '').toLowerCase();
    const at = (m.index ?? 0) + (m[1] ?? '').length;
    found.push({ kind: 'mention', handle, at, end: at + 1 + handle.length, ...range(text, at, 1 + handle.length) });
  }
  for (const m of text.matchAll(TAG)) {
    const tag = (m[2] ?? '').replace(TRAILING, '');
    const at = (m.index ?? 0) + (m[1] ?? '').length;
    if (!tag || /^\d+$/.test(tag) || graphemes(tag) > TAG_MAX) continue;
    found.push({ kind: 'tag', tag, at, end: at + 1 + tag.length, ...range(text, at, 1 + tag.length) });
  }
  found.sort((a, b) => a.at - b.at);
  const kept: FacetCandidate[] = [];
  let reached = 0;
  for (const { at, end, ...candidate } of found) {
    // A mention or tag inside a link (https://x.com/@a#b) is part of the link.
    if (at < reached) continue;
    kept.push(candidate);
    reached = end;
  }
  return kept;
}

/** The facets of the text; `didOf` resolves a handle (null: it stays plain text). */
export async function facetsOf(text: string, didOf: (handle: string) => Promise<string | null>): Promise<Facet[]> {
  const facets: Facet[] = [];
  for (const c of facetCandidates(text)) {
    const index = { byteStart: c.byteStart, byteEnd: c.byteEnd };
    if (c.kind === 'link') facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#link', uri: c.uri }] });
    else if (c.kind === 'tag') facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: c.tag }] });
    else {
      const did = await didOf(c.handle);
      if (did) facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
    }
  }
  return facets;
}
