// The HTTP client every adapter uses: real platform URLs in, rewritten onto the platform API
// base (the sandbox, or any stand-in) when one is set; a timeout; the answer parsed. It never
// retries (the job queue does) and never classifies platform errors (each adapter's table does);
// it only turns a failure to get any answer into a `transient` PlatformError. One client serves
// every adapter, built once at start (context.ts). It sends with undici's `request` through one
// keep-alive agent: the WHATWG fetch on top of the same library cost about three times the CPU
// per call (streams, Request and Response objects), as much as a message's whole SQLite work.
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { messageOf } from '../lib/errors.ts';
import { checkUrlShape, createGuardedAgent, UrlRefusedError } from '../lib/safe-fetch.ts';
import { PlatformError } from './errors.ts';
import { platformUrl } from './base-url.ts';
import { currentWriteWatch } from '../lib/platform-writes.ts';

export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** The real platform URL, e.g. https://graph.facebook.com/v24.0/me. */
  url: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** application/x-www-form-urlencoded body. */
  form?: Record<string, string | number | boolean | undefined>;
  /** JSON body. */
  json?: unknown;
  /** Raw body (uploads), with its own content type in headers. */
  body?: Uint8Array | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  /** Sent as Authorization: Bearer. */
  bearer?: string;
  timeoutMs?: number;
  /**
   * The host was chosen by the platform's user, not the platform (a Bluesky PDS, a did:web host):
   * on the real network the call is https only and connects to public addresses only (the outgoing
   * address policy, ALLOW_PRIVATE_URLS), so an account cannot point the service at an internal one.
   */
  userChosenHost?: true;
}

/** The answer's headers, by lower-case name (repeated ones joined with ", "). */
export interface PlatformHeaders {
  get(name: string): string | null;
  has(name: string): boolean;
}

export interface PlatformResponse {
  status: number;
  headers: PlatformHeaders;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: unknown;
}

export interface PlatformHttp {
  /** The platform API base in use (null: the real platforms). */
  readonly base: string | null;
  send(platform: string, request: PlatformRequest): Promise<PlatformResponse>;
  /** The URL a browser is sent to (authorize pages), rewritten like API calls. */
  browserUrl(realUrl: string): string;
}

function withQuery(url: string, query: PlatformRequest['query']): string {
  if (!query) return url;
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) parsed.searchParams.set(name, String(value));
  return parsed.toString();
}

function encodeForm(form: NonNullable<PlatformRequest['form']>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== undefined) params.set(name, String(value));
  return params.toString();
}

class RawHeaders implements PlatformHeaders {
  readonly #raw: Record<string, string | string[] | undefined>;
  constructor(raw: Record<string, string | string[] | undefined>) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }
}

export interface PlatformHttpOptions {
  base: string | null;
  userAgent: string;
  timeoutMs?: number;
  /** ALLOW_PRIVATE_URLS: user-chosen hosts may be private addresses (development). */
  allowPrivate?: boolean;
}

export function createPlatformHttp(options: PlatformHttpOptions): PlatformHttp {
  let agent: Promise<Dispatcher> | undefined;
  let guarded: Promise<Dispatcher> | undefined;
  const dispatcher = () => (agent ??= import('undici').then(({ Agent }) => new Agent({ keepAliveTimeout: 10_000 })));
  const guard = { allowPrivate: options.allowPrivate ?? false, requireHttps: true };
  // With a platform API base every call goes to the operator's stand-in, so only the real network needs the guard.
  const guardedDispatcher = () => (guarded ??= createGuardedAgent(guard));
  return {
    base: options.base,
    browserUrl: (realUrl) => platformUrl(options.base, realUrl),
    async send(platform, request) {
      const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: 'application/json', ...request.headers };
      if (request.bearer) headers.authorization = `Bearer ${request.bearer}`;
      let body: string | Uint8Array | Readable | undefined;
      if (request.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = encodeForm(request.form);
      } else if (request.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(request.json);
      } else if (request.body) {
        body = request.body instanceof ReadableStream ? Readable.fromWeb(request.body) : request.body;
      }
      const url = platformUrl(options.base, withQuery(request.url, request.query));
      const userChosen = request.userChosenHost === true && options.base === null;
      if (userChosen) {
        try {
          checkUrlShape(url, guard);
        } catch (error) {
          throw new PlatformError('invalid', `${new URL(request.url).host} is not an address the service calls: ${messageOf(error)}`, { platform });
        }
      }
      // undici is loaded on the first platform call (as lib/safe-fetch.ts does): a large module some commands never need.
      const { request: send } = await import('undici');
      // A call that may change something is announced first (lib/platform-writes.ts).
      const watch = (request.method ?? 'GET') === 'GET' ? undefined : currentWriteWatch();
      await watch?.beforeWrite();
      let status: number;
      let answerHeaders: RawHeaders;
      let text: string;
      try {
        // Redirects are not followed: `request` never does.
        const response = await send(url, {
          method: request.method ?? 'GET',
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: AbortSignal.timeout(request.timeoutMs ?? options.timeoutMs ?? 30_000),
          dispatcher: await (userChosen ? guardedDispatcher() : dispatcher()),
        });
        status = response.statusCode;
        answerHeaders = new RawHeaders(response.headers);
        text = await response.body.text();
      } catch (error) {
        watch?.afterWrite(null);
        const refused = refusalIn(error);
        if (refused) throw new PlatformError('invalid', `${new URL(request.url).host} is not an address the service calls: ${refused.message}`, { platform });
        throw new PlatformError('transient', `no answer from ${new URL(request.url).host}: ${messageOf(error)}`, { platform });
      }
      watch?.afterWrite(status);
      let parsed: unknown = text;
      if ((answerHeaders.get('content-type') ?? '').includes('json') || /^\s*[[{]/.test(text)) {
        try {
          parsed = text ? JSON.parse(quoteBigIntegers(text)) : null;
        } catch {
          parsed = text;
        }
      }
      return { status, headers: answerHeaders, body: parsed };
    },
  };
}

/** The address policy's refusal somewhere in a connection failure's causes. */
function refusalIn(error: unknown): UrlRefusedError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) if (e instanceof UrlRefusedError) return e;
  return null;
}

/**
 * Platforms send 64-bit ids as bare JSON numbers (TikTok's publicaly_available_post_id, Threads
 * and Instagram user ids, platforms.md §12), which JSON.parse would round. Every integer of 16
 * digits or more outside strings is quoted before the answer is parsed, so it is read as a string.
 */
export function quoteBigIntegers(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json.charAt(i);
    if (inString) {
      out += ch;
      if (ch === '\\') out += json.charAt(++i);
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const match = /^-?\d{16,}(?![.eE\d])/.exec(json.slice(i, i + 40));
    if (match && !/[\w.]/.test(json.charAt(i - 1))) {
      out += `"${match[0]}"`;
      i += match[0].length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}
