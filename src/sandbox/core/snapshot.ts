// A generic snapshot of the sandbox's in-memory objects as JSON, and its revival onto fresh
// instances (persistence.ts keeps it in a file). No per-store code: a field added to a store, or
// a new store on SandboxState, is kept without a line here. What JSON cannot say is tagged:
// `{"$t": "map" | "set" | "buffer" | "bigint" | "date" | "undefined" | "ref" | "object", "v": …}`
// ("object" escapes a plain object that has a `$t` key of its own). An object reached twice is
// written once and then as a `ref` to its position in the walk, so shared records stay shared
// and cycles do not loop.
//
// Revival (restoreInto) goes onto the fresh state, not beside it: class instances (the stores)
// keep their identity and methods and get their fields restored one by one, Maps, Sets and
// arrays are refilled in place (handlers and People hold references to them), plain objects are
// merged over their defaults (a settings group added since the file was written keeps its
// default). Records inside collections are plain data and come back as plain objects.
// Objects with hidden state (IdGenerator's counters) say what to keep with SNAPSHOT/RESTORE.

/** A method returning the JSON-able data to keep for an object whose state is private. */
export const SNAPSHOT = Symbol('sandbox.snapshot');
/** A method taking that data back on a fresh instance. */
export const RESTORE = Symbol('sandbox.restore');

export interface Snapshotable {
  [SNAPSHOT](): unknown;
  [RESTORE](data: unknown): void;
}

export class SnapshotError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const TAG = '$t';

function tagged(t: string, v: Json): Json {
  return { [TAG]: t, v };
}

function isSnapshotable(value: object): value is Snapshotable {
  return typeof (value as Partial<Snapshotable>)[SNAPSHOT] === 'function' && typeof (value as Partial<Snapshotable>)[RESTORE] === 'function';
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The JSON form of a value. Functions, symbols and symbol-keyed fields are not kept. */
export function encode(root: unknown): Json {
  // Every container written (array, Map, Set, object) takes the next position; decode counts
  // the same way, so a `ref` names the object by its position.
  const seen = new Map<object, number>();
  let position = 0;

  const walk = (value: unknown): Json | undefined => {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : null;
      case 'bigint':
        return tagged('bigint', value.toString());
      case 'undefined':
        return tagged('undefined', null);
      case 'function':
      case 'symbol':
        return undefined;
      case 'object':
        break;
    }
    if (value === null) return null;
    if (Buffer.isBuffer(value) || value instanceof Uint8Array) return tagged('buffer', Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'));
    if (value instanceof Date) return tagged('date', value.toISOString());
    if (isSnapshotable(value)) return walk(value[SNAPSHOT]());
    const at = seen.get(value);
    if (at !== undefined) return tagged('ref', at);
    seen.set(value, position++);
    if (Array.isArray(value)) return value.map((item: unknown) => walk(item) ?? null);
    if (value instanceof Map) return tagged('map', [...value].map(([k, v]) => [walk(k) ?? null, walk(v) ?? null]));
    if (value instanceof Set) return tagged('set', [...value].map((item) => walk(item) ?? null));
    if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) throw new SnapshotError(`cannot keep a ${value.constructor.name}`);
    const out: Record<string, Json> = {};
    for (const [key, field] of Object.entries(value)) {
      // An absent optional field stays absent; TAG is written last, through the escape below.
      if (key === TAG || field === undefined) continue;
      const encoded = walk(field);
      if (encoded !== undefined) out[key] = encoded;
    }
    if (TAG in value) {
      const own = walk((value as Record<string, unknown>)[TAG]);
      if (own !== undefined) out[TAG] = own;
      return tagged('object', out);
    }
    return out;
  };
  return walk(root) ?? null;
}

/** The values encode() wrote, with Maps, Sets, Buffers, bigints and shared objects back. */
export function decode(root: unknown): unknown {
  const objects: unknown[] = [];

  const fields = (target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> => {
    for (const [key, value] of Object.entries(source)) target[key] = walk(value);
    return target;
  };

  const walk = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      objects.push(out);
      for (const item of value) out.push(walk(item));
      return out;
    }
    const record = value as Record<string, unknown>;
    if (!(TAG in record)) return fields(remember({}), record);
    const v = record['v'];
    switch (record[TAG]) {
      case 'bigint':
        return BigInt(text(v));
      case 'undefined':
        return undefined;
      case 'buffer':
        return Buffer.from(text(v), 'base64');
      case 'date':
        return new Date(text(v));
      case 'ref': {
        if (typeof v !== 'number' || !(v in objects)) throw new SnapshotError(`a reference to an unknown object (${String(v)})`);
        return objects[v];
      }
      case 'map': {
        const map = remember(new Map<unknown, unknown>());
        for (const entry of list(v)) {
          const [k, item] = list(entry);
          map.set(walk(k), walk(item));
        }
        return map;
      }
      case 'set': {
        const set = remember(new Set<unknown>());
        for (const item of list(v)) set.add(walk(item));
        return set;
      }
      case 'object': {
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new SnapshotError('an escaped object without its fields');
        return fields(remember({}), v as Record<string, unknown>);
      }
      default:
        throw new SnapshotError(`an unknown tag: ${String(record[TAG])}`);
    }
  };

  function remember<T>(object: T): T {
    objects.push(object);
    return object;
  }
  return walk(root);
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new SnapshotError('a tagged value without its text');
  return value;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new SnapshotError('a tagged collection without its items');
  return value;
}

/**
 * Puts a decoded value onto the live one and answers what the field should hold: the live
 * object, refilled, where it is a container of the same kind; the decoded value otherwise. A
 * container of another kind than the live one (a field turned from an array into a Map) is an
 * error: the file no longer fits the code.
 */
export function restoreInto(current: unknown, decoded: unknown, path = 'state'): unknown {
  if (current === null || typeof current !== 'object') return decoded;
  if (isSnapshotable(current)) {
    current[RESTORE](decoded);
    return current;
  }
  if (decoded === null) return null; // a nullable field (a setting set to null)
  if (typeof decoded !== 'object') throw new SnapshotError(`${path}: the file has a ${typeof decoded}, the code an object`);
  if (current instanceof Map) {
    if (!(decoded instanceof Map)) throw mismatch(path, 'a Map');
    current.clear();
    for (const [k, v] of decoded) current.set(k, v);
    return current;
  }
  if (current instanceof Set) {
    if (!(decoded instanceof Set)) throw mismatch(path, 'a Set');
    current.clear();
    for (const item of decoded) current.add(item);
    return current;
  }
  if (Array.isArray(current)) {
    if (!Array.isArray(decoded)) throw mismatch(path, 'an array');
    current.length = 0;
    for (const item of decoded as unknown[]) current.push(item);
    return current;
  }
  if (Buffer.isBuffer(current) || current instanceof Date) return decoded;
  if (decoded instanceof Map || decoded instanceof Set || Array.isArray(decoded) || !isPlainObject(decoded)) {
    throw mismatch(path, isPlainObject(current) ? 'an object' : `a ${current.constructor.name}`);
  }
  // A class instance (a store) or a plain object with defaults: field by field, in place.
  const target = current as Record<string, unknown>;
  for (const [key, value] of Object.entries(decoded)) {
    target[key] = restoreInto(target[key], value, `${path}.${key}`);
  }
  return current;
}

function mismatch(path: string, expected: string): SnapshotError {
  return new SnapshotError(`${path}: the code holds ${expected} there, the file something else`);
}
