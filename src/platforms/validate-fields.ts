// The pieces every platform validator uses: reading one key of platformSpecificData with the
// type and limits its platform's schema gives (src/platforms/<platform>/options.ts), failing with
// a 400 that names the field by path, and collecting warnings for keys that are skipped. The
// messages are the API's, not the schema library's. Format rules run on every create and PATCH;
// `live` rules (beside each schema) only when the post is to go live (create with publishNow or
// scheduledFor, and publish).
import { IsSchema, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { errors } from '../http/errors.ts';

export interface Warning {
  key: string;
  message: string;
}

export interface TargetInput {
  content: string;
  /** platformSpecificData as sent (an object; {} when absent). */
  data: Record<string, unknown>;
  /** True when the post is to go live now or at its scheduled time. */
  live: boolean;
  /** `platforms[2]`: prefix of every field path in messages. */
  path: string;
  /** http media URLs are accepted (ALLOW_PRIVATE_URLS: sandbox and development); never links. */
  allowHttp: boolean;
  /**
   * The account the target goes to, for rules that depend on its kind (a LinkedIn organization,
   * a Page). Given when the post is created; a stored target validated again (new content,
   * going live) was checked against its account then, and its account's kind does not change.
   */
  account?: { platformUserId: string; metadata: Record<string, unknown> } | undefined;
}

/** What a platform validator gives back: its normalised options and the skipped keys. */
export interface Validated<O> {
  /** The keys that apply, normalised; this is what is stored and what the publisher reads. */
  options: O;
  warnings: Warning[];
}

/** Code points, as the platforms count text length. */
export const length = (text: string): number => [...text].length;

// Reading a platform schema (src/platforms/<platform>/options.ts): the keywords its format rules
// use. The schemas are plain JSON Schema, so each keyword is read and type-checked here.
function keyword(schema: TSchema, name: string): unknown {
  return name in schema ? (schema as Record<string, unknown>)[name] : undefined;
}
export function numberKeyword(schema: TSchema, name: 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems'): number | undefined {
  const value = keyword(schema, name);
  return typeof value === 'number' ? value : undefined;
}
/** The words an enum schema allows (a string enum), in the schema's order. */
export function enumOf(schema: TSchema): readonly string[] {
  const values = keyword(schema, 'enum');
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) throw new Error('not a string enum schema');
  return values;
}
/** The schema's pattern, or null when it has none. */
export function patternOf(schema: TSchema): RegExp | null {
  const pattern = keyword(schema, 'pattern');
  return typeof pattern === 'string' ? new RegExp(pattern, 'u') : null;
}
/** The schema of an array's items. */
export function itemsOf(schema: TSchema): TSchema {
  const items = keyword(schema, 'items');
  if (!IsSchema(items)) throw new Error('not an array schema');
  return items;
}
/** The schema of an object's property. */
export function propertyOf(schema: TSchema, key: string): TSchema {
  const properties = keyword(schema, 'properties');
  const property = properties && typeof properties === 'object' ? (properties as Record<string, unknown>)[key] : undefined;
  if (!IsSchema(property)) throw new Error(`no property ${key} in the schema`);
  return property;
}

/** Why `value` breaks a string schema's type or length, or null (lengths in code points). */
export function stringProblem(schema: TSchema, value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  const min = numberKeyword(schema, 'minLength');
  const max = numberKeyword(schema, 'maxLength');
  const n = length(value);
  if (min !== undefined && n < min) return min === 1 ? 'must not be empty' : `must have at least ${min} characters`;
  if (max !== undefined && n > max) return `must have at most ${max} characters`;
  return null;
}

/** Why `value` is not one of an enum schema's words, or null. */
export function enumProblem(schema: TSchema, value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  const values = enumOf(schema);
  return values.includes(value) ? null : `must be one of ${values.join(', ')}`;
}

/** The format rules of one platform's keys, read from its schema, with the 400 that names the key. */
export class Fields<P extends TProperties> {
  readonly warnings: Warning[] = [];
  readonly input: TargetInput;
  readonly schema: TObject<P>;
  constructor(input: TargetInput, schema: TObject<P>) {
    this.input = input;
    this.schema = schema;
  }

  /** The schema of one key. */
  prop(key: keyof P & string): TSchema {
    return propertyOf(this.schema, key);
  }

  path(key: string): string {
    return `${this.input.path}.platformSpecificData.${key}`;
  }

  fail(key: string, problem: string): never {
    throw errors.invalid(this.path(key), problem);
  }

  /** A failure on the target itself rather than one key (e.g. the content's length). */
  failTarget(field: string, problem: string): never {
    throw errors.invalid(`${this.input.path}.${field}`, problem);
  }

  /** Fails on a live-only rule a platform's options.ts reports broken (`content`: the post's text). */
  failLive(broken: { key: string; problem: string; content?: boolean } | null): void {
    if (!broken) return;
    if (broken.content === true) this.failTarget('content', broken.problem);
    this.fail(broken.key, broken.problem);
  }

  has(key: string): boolean {
    return this.input.data[key] !== undefined && this.input.data[key] !== null;
  }

  raw(key: string): unknown {
    return this.input.data[key];
  }

  skip(key: string, message: string): void {
    if (this.has(key)) this.warnings.push({ key, message });
  }

  /** A string key: its type and length from the schema. */
  string(key: keyof P & string): string | undefined {
    return this.anyString(key);
  }

  private anyString(key: string): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    const problem = stringProblem(propertyOf(this.schema, key), value);
    if (problem !== null || typeof value !== 'string') return this.fail(key, problem ?? 'must be a string');
    return value;
  }

  /** Whether a string matches the key's pattern (the caller says what is wrong when not). */
  matches(key: keyof P & string, value: string): boolean {
    return patternOf(this.prop(key))?.test(value) ?? true;
  }

  boolean(key: keyof P & string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    if (typeof value !== 'boolean') this.fail(key, 'must be a boolean');
    return value;
  }

  /** An integer key within the schema's minimum and maximum (`max`: a tighter bound known only now). */
  integer(key: keyof P & string, max?: number): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    const schema = this.prop(key);
    const min = numberKeyword(schema, 'minimum') ?? 0;
    const top = max ?? numberKeyword(schema, 'maximum') ?? Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isInteger(value)) this.fail(key, 'must be an integer');
    if (value < min || value > top) this.fail(key, `must be between ${min} and ${top}`);
    return value;
  }

  /** An enum key: one of the schema's words, typed as the schema says. */
  oneOf<K extends keyof P & string>(key: K): Exclude<Static<P[K]>, undefined> | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    const problem = enumProblem(this.prop(key), value);
    if (problem) this.fail(key, problem);
    return value as Exclude<Static<P[K]>, undefined>;
  }

  /** A URL the platform fetches (media, covers): http too where `allowHttp` says so. */
  url(key: keyof P & string, what = 'an https URL'): string | undefined {
    return this.checkedUrl(key, this.input.allowHttp, what);
  }

  /**
   * A link published for readers (facebook `link`, threads `linkAttachment`, reddit `url`): the
   * same rule on drafts and live posts, whatever `allowHttp` says; that flag lets platforms fetch
   * media from a development machine, it has nothing to do with the links a post shows. https
   * only, unless the platform takes http links too (`http: true`, reddit).
   */
  link(key: keyof P & string, options: { http?: boolean } = {}): string | undefined {
    return this.checkedUrl(key, options.http === true, options.http === true ? 'an http(s) URL' : 'an https URL');
  }

  private checkedUrl(key: string, allowHttp: boolean, what: string): string | undefined {
    const value = this.anyString(key);
    if (value === undefined) return undefined;
    const problem = urlProblem(value, allowHttp, what);
    if (problem) this.fail(key, problem);
    return value;
  }

  /**
   * mediaUrl or mediaUrls as one list (mediaUrl is a list of one); both at once is a 400. The
   * count of mediaUrls is the schema's minItems to maxItems.
   */
  mediaUrls(): string[] {
    if (this.has('mediaUrl') && this.has('mediaUrls')) this.fail('mediaUrls', 'give mediaUrl or mediaUrls, not both');
    if (this.has('mediaUrl')) return [this.checkedUrl('mediaUrl', this.input.allowHttp, 'an https URL') ?? ''];
    if (!this.has('mediaUrls')) return [];
    const value = this.raw('mediaUrls');
    const schema = propertyOf(this.schema, 'mediaUrls');
    const min = numberKeyword(schema, 'minItems') ?? 0;
    const max = numberKeyword(schema, 'maxItems') ?? Number.MAX_SAFE_INTEGER;
    if (!Array.isArray(value)) this.fail('mediaUrls', 'must be an array of URLs');
    if (value.length < min || value.length > max) this.fail('mediaUrls', `must have ${min} to ${max} items`);
    return value.map((item, i) => {
      if (typeof item !== 'string') this.fail(`mediaUrls[${i}]`, 'must be a string');
      const problem = urlProblem(item, this.input.allowHttp, 'an https URL');
      if (problem) this.fail(`mediaUrls[${i}]`, problem);
      return item;
    });
  }
}

/** `options` without its undefined keys, in the same order: the object as stored (JSON). */
export function compact<O extends object>(options: O): O {
  for (const key of Object.keys(options) as Array<keyof O>) if (options[key] === undefined) delete options[key];
  return options;
}

export function urlProblem(value: string, allowHttp: boolean, what: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be ${what}`;
  }
  if (url.protocol === 'https:' || (allowHttp && url.protocol === 'http:')) return null;
  return `must be ${what}`;
}

/** The file extension of a URL's path, lower-case, or null. */
export function extensionOf(url: string): string | null {
  try {
    const match = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname);
    return match?.[1]?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

const VIDEO_EXTENSIONS = new Set(['mp4', 'mov', 'm4v', 'webm']);
export const looksLikeVideo = (url: string): boolean => VIDEO_EXTENSIONS.has(extensionOf(url) ?? '');

/** Hashtags in a caption (#word). */
export const hashtagCount = (text: string): number => (text.match(/(^|\s)#[^\s#]+/gu) ?? []).length;

/** Fails one key of the object being read (the post's data, or one thread item), by its path. */
export type Fail = (key: string, problem: string) => never;

/**
 * mediaUrl or mediaUrls of the post or of one thread item: each an https URL (http where allowed),
 * at most `max` of them (`tooMany` says what the platform takes). A mediaUrls of no item is refused
 * when `atLeastOne` (the platform's schema asks for one).
 */
export function mediaUrlList(source: Record<string, unknown>, fail: Fail, allowHttp: boolean, limits: { max: number; tooMany: string; atLeastOne?: boolean }): string[] {
  if (source.mediaUrl !== undefined && source.mediaUrls !== undefined) fail('mediaUrls', 'give mediaUrl or mediaUrls, not both');
  const raw = source.mediaUrl !== undefined ? [source.mediaUrl] : source.mediaUrls;
  if (raw !== undefined && !Array.isArray(raw)) fail('mediaUrls', 'must be an array of URLs');
  const list = (raw ?? []) as unknown[];
  if (limits.atLeastOne && source.mediaUrls !== undefined && list.length === 0) fail('mediaUrls', `must have 1 to ${limits.max} items`);
  if (list.length > limits.max) fail('mediaUrls', limits.tooMany);
  return list.map((url, i) => {
    const key = source.mediaUrl !== undefined ? 'mediaUrl' : `mediaUrls[${i}]`;
    if (typeof url !== 'string') return fail(key, 'must be a string');
    const problem = urlProblem(url, allowHttp, 'an https URL');
    return problem ? fail(key, problem) : url;
  });
}

/** altText (one for every item) or altTexts (one per item, null for none) for `count` media, each checked by `problem`. */
export function altTextList(source: Record<string, unknown>, count: number, fail: Fail, problem: (alt: string) => string | null): Array<string | null> | undefined {
  if (source.altText !== undefined && source.altTexts !== undefined) fail('altTexts', 'give altText or altTexts, not both');
  if (source.altText !== undefined) {
    const alt = source.altText;
    if (typeof alt !== 'string') return fail('altText', 'must be a string');
    const wrong = problem(alt);
    if (wrong) fail('altText', wrong);
    if (count === 0) fail('altText', 'there is no media to describe');
    return Array.from({ length: count }, () => alt);
  }
  if (source.altTexts === undefined) return undefined;
  if (!Array.isArray(source.altTexts)) return fail('altTexts', 'must be an array of strings');
  if (source.altTexts.length !== count) fail('altTexts', `must give one per media item (${count})`);
  return source.altTexts.map((alt: unknown, i) => {
    if (alt === null) return null;
    if (typeof alt !== 'string') return fail(`altTexts[${i}]`, 'must be a string or null');
    const wrong = problem(alt);
    if (wrong) fail(`altTexts[${i}]`, wrong);
    return alt;
  });
}

export interface ChainItem {
  content: string;
  mediaUrls?: string[];
  altTexts?: Array<string | null>;
}

/**
 * threadItems of a reply chain of text and media (x, bluesky): `minItems` to `maxItems` of the
 * schema (else 1 to `max`), each `{content, mediaUrl(s)?, altText(s)?}` with its content checked by
 * `textProblem` and its media by `media`; an item's unknown keys are skipped with a warning.
 */
export function chainItems<P extends TProperties>(
  f: Fields<P>,
  rules: { max: number; itemKeys: ReadonlySet<string>; textProblem: (text: string) => string | null; media: (source: Record<string, unknown>, fail: Fail) => Omit<ChainItem, 'content'> & { mediaUrls: string[] } },
): ChainItem[] {
  const value = f.raw('threadItems');
  const schema = propertyOf(f.schema, 'threadItems');
  const min = numberKeyword(schema, 'minItems') ?? 1;
  const max = numberKeyword(schema, 'maxItems') ?? rules.max;
  if (!Array.isArray(value)) return f.fail('threadItems', 'must be an array');
  if (value.length < min || value.length > max) f.fail('threadItems', `must have ${min} to ${max} items`);
  return value.map((item: unknown, i): ChainItem => {
    const fail: Fail = (key, problem) => {
      throw errors.invalid(f.path(`threadItems[${i}].${key}`), problem);
    };
    if (!item || typeof item !== 'object' || Array.isArray(item)) return f.fail(`threadItems[${i}]`, 'must be an object');
    const source = item as Record<string, unknown>;
    for (const key of Object.keys(source)) if (!rules.itemKeys.has(key)) f.warnings.push({ key: `threadItems[${i}].${key}`, message: 'unknown key of a thread item; skipped' });
    const content = source.content;
    if (typeof content !== 'string') return fail('content', content === undefined ? 'required' : 'must be a string');
    const problem = rules.textProblem(content);
    if (problem) fail('content', problem);
    const m = rules.media(source, fail);
    if (f.input.live && !content.trim() && m.mediaUrls.length === 0) fail('content', 'required for a post of the chain without media');
    return compact({ content, mediaUrls: m.mediaUrls.length ? m.mediaUrls : undefined, altTexts: m.altTexts });
  });
}
