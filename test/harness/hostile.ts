// Hostile inputs for the fuzzing pass (test/fuzz-operations.test.ts): fixed lists, so a run is
// the same every time, and a sample body built from an operation's JSON schema in the served
// OpenAPI document, whose fields are then replaced one at a time.

/** A value to send, and the texts an error answer must not contain (the input, echoed). */
export interface Hostile {
  /** In a URL: already percent-encoded as it goes on the wire. In a body: raw JSON text. */
  text: string;
  markers: string[];
}

const long = 'a'.repeat(10_000);

/** Path parameter and query values, as they go on the wire. */
export const URL_VALUES: Hostile[] = [
  { text: '%00', markers: ['\0'] },
  { text: 'id%00x', markers: ['id\0x', 'id%00x'] },
  { text: '%ZZ', markers: ['%ZZ'] },
  { text: long, markers: ['a'.repeat(101)] },
  { text: '-1', markers: [] },
  { text: '99999999999999999999999', markers: ['99999999999999999999999'] },
  { text: '1e309', markers: [] },
  { text: 'NaN', markers: [] },
  { text: '', markers: [] },
  { text: '%ED%A0%80', markers: ['%ED%A0%80', '\ud800', '\ufffd'] },
  { text: '%C3%28', markers: ['%C3%28'] },
  { text: '%F0%9F%92%A9%E2%80%AE%EF%BB%BF%EF%BF%BF', markers: ['\u{1F4A9}'] },
  { text: '..%2F..%2Fetc%2Fpasswd', markers: ['etc/passwd', 'etc%2Fpasswd'] },
  { text: '%27%20OR%201%3D1--', markers: ["' OR 1=1--"] },
  { text: '%3Cscript%3Ealert(1)%3C%2Fscript%3E', markers: ['<script>'] },
  { text: '%0D%0ASet-Cookie%3A%20x%3D1', markers: ['Set-Cookie'] },
];

/** Whole query strings whose names, not values, are hostile. */
export const QUERY_NAMES: Hostile[] = [
  { text: '%00=1', markers: ['\0'] },
  { text: 'a%00b=1', markers: ['a\0b'] },
  { text: '__proto__[x]=1&constructor[prototype][x]=1', markers: [] },
  { text: `${'q'.repeat(5_000)}=1`, markers: ['q'.repeat(101)] },
];

/** JSON values put in place of one field of a body. */
export const JSON_VALUES: Hostile[] = [
  { text: '"\\u0000"', markers: ['\0'] },
  { text: '"a\\u0000b"', markers: ['a\0b'] },
  { text: '"\\ud800"', markers: ['\ud800', '\ufffd'] },
  { text: '"x\\udfffy"', markers: ['\udfff', '\ufffd'] },
  { text: JSON.stringify('\u{1F4A9}\u202e\ufeff\uffff'), markers: ['\u{1F4A9}'] },
  { text: JSON.stringify('z'.repeat(100_000)), markers: ['z'.repeat(101)] },
  { text: JSON.stringify('%ZZ<script>'), markers: ['%ZZ<script>'] },
  { text: '1e400', markers: [] },
  { text: '-1', markers: [] },
  { text: '99999999999999999999', markers: ['99999999999999999999', '100000000000000000000'] },
  { text: '0.5', markers: [] },
  { text: 'true', markers: [] },
  { text: 'null', markers: [] },
  { text: '[]', markers: [] },
  { text: '{}', markers: [] },
  { text: '[{}]', markers: [] },
  { text: `${'['.repeat(40)}${']'.repeat(40)}`, markers: [] },
  { text: '{"a":{"b":{"c":[null,1,"\\u0000"]}}}', markers: ['\0'] },
];

/** Values for the free-form platformSpecificData keys: the above, and arrays of odd objects. */
export const OPTION_VALUES: Hostile[] = [
  ...JSON_VALUES,
  { text: '[null]', markers: [] },
  { text: '[1]', markers: [] },
  { text: '["x"]', markers: [] },
  { text: '[[[[]]]]', markers: [] },
  { text: '[{"text":123,"mediaUrls":"x","mediaUrl":{},"username":[],"x":-1,"y":"a","url":{},"altText":7}]', markers: [] },
  { text: '{"text":1,"username":{},"url":[]}', markers: [] },
  { text: '"http://127.0.0.1:1/%ZZ"', markers: ['%ZZ'] },
  { text: '"https://"', markers: [] },
  { text: `${'['.repeat(20_000)}${']'.repeat(20_000)}`, markers: [] },
];

/** Whole bodies sent as application/json. */
export const RAW_BODIES: Array<Hostile & { bytes?: Buffer }> = [
  { text: '', markers: [] },
  { text: '{', markers: [] },
  { text: '{"a":', markers: [] },
  { text: 'null', markers: [] },
  { text: '[]', markers: [] },
  { text: '"x"', markers: [] },
  { text: '0', markers: [] },
  { text: 'true', markers: [] },
  { text: '\0', markers: ['\0'] },
  { text: '{"a":1}trailing-garbage', markers: ['trailing-garbage'] },
  { text: '\ufeff{}', markers: [] },
  { text: '{"__proto__":{"polluted":1}}', markers: ['polluted'] },
  { text: '{"constructor":{"prototype":{"polluted":1}}}', markers: ['polluted'] },
  { text: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, markers: ['[[[['] },
  { text: `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`, markers: [] },
  { text: '{"a":"\\u0000"}', markers: ['\0'] },
  { text: `{"a":"${'q'.repeat(2_100_000)}"}`, markers: ['q'.repeat(101)] },
  { text: '(bytes that are not UTF-8)', markers: [], bytes: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]) },
];

/** Content types a JSON operation does not take (undefined: none at all). */
export const CONTENT_TYPES: Array<string | undefined> = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/json; charset=utf-16',
  'application/jsonx',
  'application/json; charset="%ZZ"; x=<script>',
  'multipart/form-data; boundary=zzz',
  `application/${'v'.repeat(3_000)}`,
];

export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minimum?: number;
  minLength?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: boolean | Schema;
}

export interface SchemaContext {
  components: Record<string, Schema>;
  /** Sample values for fields by name (an id that exists), overriding the generic ones. */
  known: Record<string, unknown>;
}

function resolve(schema: Schema, context: SchemaContext): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').pop() ?? '';
  return context.components[name] ?? {};
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** A plausible value for `schema`: required fields only, the first of enums and unions. */
export function sample(schema: Schema, context: SchemaContext, name = '', depth = 0): unknown {
  const s = resolve(schema, context);
  if (name in context.known) return context.known[name];
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const branch = (s.anyOf ?? s.oneOf)?.find((b) => typeOf(resolve(b, context)) !== 'null');
  if (branch) return sample(branch, context, name, depth);
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth < 6) for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, context, key, depth + 1);
      return out;
    }
    case 'array':
      return (s.minItems ?? 0) > 0 && s.items ? [sample(s.items, context, name, depth + 1)] : [];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (s.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (s.format === 'uri' || s.format === 'url' || /url/i.test(name)) return 'https://127.0.0.1/x';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return 'x';
  }
}

/** Every field path of `schema` (array items at index 0), to a bounded depth. */
export function fieldPaths(schema: Schema, context: SchemaContext, prefix: Array<string | number> = [], depth = 0): Array<Array<string | number>> {
  const s = resolve(schema, context);
  const branch = (s.anyOf ?? s.oneOf)?.find((b) => typeOf(resolve(b, context)) !== 'null');
  if (branch) return fieldPaths(branch, context, prefix, depth);
  const out: Array<Array<string | number>> = prefix.length ? [prefix] : [];
  if (depth >= 4) return out;
  if (typeOf(s) === 'object') {
    for (const [key, child] of Object.entries(s.properties ?? {})) out.push(...fieldPaths(child, context, [...prefix, key], depth + 1));
  } else if (typeOf(s) === 'array' && s.items) {
    out.push(...fieldPaths(s.items, context, [...prefix, 0], depth + 1));
  }
  return out;
}

const PLACEHOLDER = '\u0001hostile\u0001';

/** `base` as JSON text with the field at `path` replaced by raw JSON `value`. */
export function withField(base: unknown, path: Array<string | number>, value: string): string {
  const copy: unknown = structuredClone(base);
  let target: unknown = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] ?? '';
    const container = target as Record<string | number, unknown>;
    if (typeof container[key] !== 'object' || container[key] === null) container[key] = typeof path[i + 1] === 'number' ? [] : {};
    target = container[key];
  }
  (target as Record<string | number, unknown>)[path[path.length - 1] ?? ''] = PLACEHOLDER;
  return JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), value);
}

/** A small seeded generator (mulberry32): the same choices on every run. */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
