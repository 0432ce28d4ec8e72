// The pieces every platform validator uses: reading one key of platformSpecificData with its
// type and limits, failing with a 400 that names the field by path, and collecting warnings
// for keys that are skipped. Format rules run on every create and PATCH; `live` rules only when
// the post is to go live (create with publishNow or scheduledFor, and publish).
import { errors } from '../../../http/errors.ts';

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
}

export interface TargetResult {
  /** The keys that apply, normalised; this is what the publisher reads. */
  options: Record<string, unknown>;
  warnings: Warning[];
}

export type PlatformValidator = (input: TargetInput) => TargetResult;

/** Code points, as the platforms count text length. */
export const length = (text: string): number => [...text].length;

export class Fields {
  readonly warnings: Warning[] = [];
  readonly options: Record<string, unknown> = {};
  readonly input: TargetInput;
  constructor(input: TargetInput) {
    this.input = input;
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

  has(key: string): boolean {
    return this.input.data[key] !== undefined && this.input.data[key] !== null;
  }

  raw(key: string): unknown {
    return this.input.data[key];
  }

  skip(key: string, message: string): void {
    if (this.has(key)) this.warnings.push({ key, message });
  }

  string(key: string, limits: { min?: number; max?: number } = {}): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    if (typeof value !== 'string') this.fail(key, 'must be a string');
    checkLength(value, limits, (problem) => this.fail(key, problem));
    return value;
  }

  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    if (typeof value !== 'boolean') this.fail(key, 'must be a boolean');
    return value;
  }

  integer(key: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    if (typeof value !== 'number' || !Number.isInteger(value)) this.fail(key, 'must be an integer');
    if (value < min || value > max) this.fail(key, `must be between ${min} and ${max}`);
    return value;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) this.fail(key, `must be one of ${values.join(', ')}`);
    return value as T;
  }

  /** A URL the platform fetches (media, covers): http too where `allowHttp` says so. */
  url(key: string, what = 'an https URL'): string | undefined {
    return this.checkedUrl(key, this.input.allowHttp, what);
  }

  /**
   * A link published for readers (facebook `link`, threads `linkAttachment`, reddit `url`): the
   * same rule on drafts and live posts, whatever `allowHttp` says; that flag lets platforms fetch
   * media from a development machine, it has nothing to do with the links a post shows. https
   * only, unless the platform takes http links too (`http: true`, reddit).
   */
  link(key: string, options: { http?: boolean } = {}): string | undefined {
    return this.checkedUrl(key, options.http === true, options.http === true ? 'an http(s) URL' : 'an https URL');
  }

  private checkedUrl(key: string, allowHttp: boolean, what: string): string | undefined {
    const value = this.string(key, { max: 2000 });
    if (value === undefined) return undefined;
    const problem = urlProblem(value, allowHttp, what);
    if (problem) this.fail(key, problem);
    return value;
  }

  /** mediaUrl or mediaUrls as one list (mediaUrl is a list of one); both at once is a 400. */
  mediaUrls(min = 1, max = 35): string[] {
    if (this.has('mediaUrl') && this.has('mediaUrls')) this.fail('mediaUrls', 'give mediaUrl or mediaUrls, not both');
    if (this.has('mediaUrl')) return [this.url('mediaUrl') ?? ''];
    if (!this.has('mediaUrls')) return [];
    const value = this.raw('mediaUrls');
    if (!Array.isArray(value)) this.fail('mediaUrls', 'must be an array of URLs');
    if (value.length < min || value.length > max) this.fail('mediaUrls', `must have ${min} to ${max} items`);
    return value.map((item, i) => {
      if (typeof item !== 'string') this.fail(`mediaUrls[${i}]`, 'must be a string');
      const problem = urlProblem(item, this.input.allowHttp, 'an https URL');
      if (problem) this.fail(`mediaUrls[${i}]`, problem);
      return item;
    });
  }

  /** Keeps a value among the options sent to the publisher. */
  keep(key: string, value: unknown): void {
    if (value !== undefined) this.options[key] = value;
  }

  result(): TargetResult {
    return { options: this.options, warnings: this.warnings };
  }
}

export function checkLength(value: string, limits: { min?: number; max?: number }, fail: (problem: string) => never): void {
  const n = length(value);
  if (limits.min !== undefined && n < limits.min) fail(limits.min === 1 ? 'must not be empty' : `must have at least ${limits.min} characters`);
  if (limits.max !== undefined && n > limits.max) fail(`must have at most ${limits.max} characters`);
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
