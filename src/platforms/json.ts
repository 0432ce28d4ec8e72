// Readers for parsed platform answers (and stored options): each takes `unknown` and answers a
// typed value or an empty one, so adapters read what a platform sent without casts. Shared by
// every platform; nothing here knows one.

export type Json = Record<string, unknown>;

/** A non-empty string, or a number as its text (ids); null for anything else. */
export const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null);

/** A string value, or a number as its text; '' for anything else. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** A finite number, or null. */
export const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** An array, or an empty one. */
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The strings of an array (other items left out). */
export const strings = (value: unknown): string[] => list(value).filter((v): v is string => typeof v === 'string');

/** An object (not an array), or an empty one. */
export const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/** A Graph time (`2026-01-05T10:00:00+0000`, ISO 8601 or unix seconds) in ms; null when unreadable. */
export function graphTimeMs(value: unknown): number | null {
  if (typeof value === 'number') return value * 1000;
  if (typeof value !== 'string') return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const ms = Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  return Number.isNaN(ms) ? null : ms;
}
