// Graph field selection (platforms.md §1.6): `fields=id,name,picture{url},accounts.limit(5){id}`.
// A node offers its fields as lazy getters; the caller gets the asked ones (or the node's
// defaults), and an unknown field is Graph's error 100 "Tried accessing nonexisting field".
import { invalidParameter } from './graph-error.ts';

export interface FieldSpec {
  name: string;
  children: FieldSpec[] | null;
  /** `.limit(5)` → { limit: '5' }. */
  modifiers: Record<string, string>;
}

export function parseFields(text: string | undefined): FieldSpec[] | null {
  if (!text?.trim()) return null;
  let i = 0;
  const parseList = (): FieldSpec[] => {
    const out: FieldSpec[] = [];
    while (i < text.length) {
      const start = i;
      while (i < text.length && !',{}.('.includes(text.charAt(i))) i++;
      const field: FieldSpec = { name: text.slice(start, i).trim(), children: null, modifiers: {} };
      while (text.charAt(i) === '.') {
        const ms = ++i;
        while (i < text.length && text.charAt(i) !== '(') i++;
        const key = text.slice(ms, i);
        const vs = ++i;
        while (i < text.length && text.charAt(i) !== ')') i++;
        field.modifiers[key] = text.slice(vs, i);
        i++;
      }
      if (text.charAt(i) === '{') {
        i++;
        field.children = parseList();
        i++;
      }
      if (field.name) out.push(field);
      if (text.charAt(i) === ',') i++;
      else if (text.charAt(i) === '}') return out;
    }
    return out;
  };
  return parseList();
}

export type FieldGetters = Record<string, () => unknown>;

/** Builds the node's answer. `id` is always included, as Graph does. */
export function selectFields(nodeType: string, getters: FieldGetters, fields: FieldSpec[] | null, defaults: string[]): Record<string, unknown> {
  const asked = fields ?? defaults.map((name) => ({ name, children: null, modifiers: {} }));
  const out: Record<string, unknown> = {};
  for (const field of asked) {
    const getter = getters[field.name];
    if (!getter) throw invalidParameter(`(#100) Tried accessing nonexisting field (${field.name}) on node type (${nodeType})`);
    const value = getter();
    if (value === undefined) continue;
    out[field.name] = field.children ? pickNested(value, field.children) : value;
  }
  if (!('id' in out) && getters.id) out.id = getters.id();
  return out;
}

/** Sub-selection on a plain nested value (`picture{url}`, `children{id}`, `data` lists). */
function pickNested(value: unknown, children: FieldSpec[]): unknown {
  if (Array.isArray(value)) return value.map((v) => pickNested(v, children));
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.data)) return { ...record, data: record.data.map((v) => pickNested(v, children)) };
  const out: Record<string, unknown> = {};
  for (const child of children) {
    if (child.name in record) out[child.name] = child.children ? pickNested(record[child.name], child.children) : record[child.name];
  }
  return out;
}
