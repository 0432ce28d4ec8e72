// Reading the dashboard's urlencoded forms and queries: every field a string, read by name; bad
// input is a FormError naming the field (a 400 page), never a 500.
export class FormError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.field = field;
  }
}

export type Fields = ReadonlyMap<string, string>;

/** The fields of a parsed form body or query; a repeated field keeps all its values joined by a newline. */
export function fieldsOf(source: unknown): Fields {
  const fields = new Map<string, string>();
  if (typeof source !== 'object' || source === null) return fields;
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'string') fields.set(name, value);
    else if (Array.isArray(value)) fields.set(name, value.filter((v): v is string => typeof v === 'string').join('\n'));
  }
  return fields;
}

export function all(fields: Fields, name: string): string[] {
  const value = fields.get(name);
  return value === undefined || value === '' ? [] : value.split('\n');
}

export function optionalText(fields: Fields, name: string, max: number): string | null {
  const value = fields.get(name)?.trim() ?? '';
  if (value.length > max) throw new FormError(name, `at most ${max} characters`);
  return value === '' ? null : value;
}

export function optionalPositiveInteger(fields: Fields, name: string, max: number): number | null {
  const value = fields.get(name)?.trim() ?? '';
  if (value === '') return null;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new FormError(name, `a whole number from 1 to ${max}`);
  return Number(value);
}

export const checked = (fields: Fields, name: string): boolean => fields.has(name) && fields.get(name) !== '0';

/** A keyset cursor from the query: an id of the listed kind, or nothing. */
export function cursor(fields: Fields, name = 'before'): string | undefined {
  const value = fields.get(name);
  if (value === undefined || value === '') return undefined;
  if (!/^[a-z]{2,8}_[0-9A-Za-z]{1,40}$/.test(value)) throw new FormError(name, 'not a position in this list');
  return value;
}
