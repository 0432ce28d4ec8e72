// Outgoing HTTP to addresses a client chose (media URLs now, webhook endpoints next), guarded
// against server-side request forgery:
// - http(s) only (https only with requireHttps), no credentials in the URL;
// - the address is checked where the connection is made: the resolver given to the socket
//   (undici Agent `connect.lookup`) refuses names that resolve to a non-public address, so there
//   is no gap between a check and the connect for DNS rebinding to use; IP literals, which
//   skip the resolver, are checked before each request;
// - every redirect hop is checked the same way, at most `maxRedirects` (5) of them;
// - connect, header, idle and total timeouts; a response body limit while streaming.
// The policy of which addresses are public is lib/address-policy.ts.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { Agent } from 'undici';
import { addressRefusal, describeRefusal, ipLiteral } from './address-policy.ts';

/** The URL, or an address it resolves to or redirects to, is not allowed. */
export class UrlRefusedError extends Error {
  override name = 'UrlRefusedError';
}

/** The fetch could not be completed: unreachable, timed out, too many redirects. */
export class FetchFailedError extends Error {
  override name = 'FetchFailedError';
}

/** The response body is larger than the limit. */
export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
  readonly limit: number;
  constructor(limit: number) {
    super(`the response is larger than ${limit} bytes`);
    this.limit = limit;
  }
}

export interface UrlGuardOptions {
  /** Allow loopback, private, unique-local and CGNAT addresses (ALLOW_PRIVATE_URLS; development). */
  allowPrivate: boolean;
  /** Refuse plain http (webhook endpoints in production). */
  requireHttps?: boolean;
  /** The resolver; Node's dns.lookup by default. Tests give their own names. */
  lookup?: LookupFunction;
  /** Why an address is refused ("a loopback address"), or null; by default addressRefusal(address, allowPrivate). */
  refusal?: (address: string) => string | null;
}

export interface SafeFetchOptions extends UrlGuardOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Redirects followed (each hop checked); 0 returns the 3xx itself. Default 5. */
  maxRedirects?: number;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** Until the response headers; default 30 s. */
  headersTimeoutMs?: number;
  /** Longest pause between two body chunks; default 30 s. */
  idleTimeoutMs?: number;
  /** The whole exchange, body included; default 60 s. */
  timeoutMs?: number;
  /** The body limit in bytes; past it the body stream fails with ResponseTooLargeError. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** An agent from createGuardedAgent under the same policy, kept open by the caller. */
  agent?: Agent;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  /** The URL that answered, after redirects. */
  url: string;
  redirects: number;
  /** The body, limited to maxBytes; errors are the classes above. Consume or destroy it. */
  body: Readable;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CROSS_ORIGIN_DROPPED = ['authorization', 'cookie', 'proxy-authorization'];

/** Lets an unread body go without undici raising "Request aborted" with nobody listening. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

const refusalOf = (options: UrlGuardOptions) => options.refusal ?? ((address: string) => addressRefusal(address, options.allowPrivate));

/** Checks what can be checked without the network: scheme, credentials, an IP-literal host. */
export function checkUrlShape(input: string | URL, options: UrlGuardOptions): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UrlRefusedError('not a valid URL');
  }
  if (url.protocol !== 'https:' && (url.protocol !== 'http:' || options.requireHttps)) {
    throw new UrlRefusedError(options.requireHttps ? 'only https URLs are allowed' : 'only http and https URLs are allowed');
  }
  if (url.username || url.password) throw new UrlRefusedError('URLs with credentials are not allowed');
  const literal = ipLiteral(url.hostname);
  if (literal !== null) {
    const why = refusalOf(options)(literal);
    if (why) throw new UrlRefusedError(describeRefusal(literal, why));
  }
  return url;
}

/** A resolver that fails the connection when any address of the name is refused. */
function guardedLookup(options: UrlGuardOptions): LookupFunction {
  const resolve: LookupFunction = options.lookup ?? dnsLookup;
  const refusal = refusalOf(options);
  return (hostname: string, lookupOptions: LookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const list: LookupAddress[] = Array.isArray(addresses) ? addresses : [{ address: addresses, family: addresses.includes(':') ? 6 : 4 }];
      for (const entry of list) {
        const why = refusal(entry.address);
        if (why) {
          callback(Object.assign(new UrlRefusedError(`${hostname} resolves to ${entry.address}, ${why}`), { code: 'EREFUSEDADDRESS' }), '', 0);
          return;
        }
      }
      const first = list[0];
      if (!first) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      else if (lookupOptions.all) callback(null, list);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks a URL the way safeFetch will, resolving its name now: for validating a URL when it is
 * registered (a webhook endpoint). safeFetch checks again at every connection, so a name that
 * later resolves elsewhere is still refused.
 */
export async function assertPublicUrl(input: string | URL, options: UrlGuardOptions): Promise<URL> {
  const url = checkUrlShape(input, options);
  if (ipLiteral(url.hostname) !== null) return url;
  const lookup = guardedLookup(options);
  await new Promise<void>((resolve, reject) => {
    lookup(url.hostname, { all: true }, (error) => (error ? reject(error instanceof UrlRefusedError ? error : new UrlRefusedError(`${url.hostname} cannot be resolved`)) : resolve()));
  });
  return url;
}

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 8; e = e instanceof Error ? e.cause : undefined) chain.push(e);
  return chain;
}

const codeOf = (e: unknown): string | undefined => (e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined);

/** Turns what undici and the sockets throw into the three errors callers handle. */
function explain(error: unknown, url: URL, options: SafeFetchOptions, signal: AbortSignal, deadline: AbortSignal): unknown {
  const chain = causes(error);
  for (const e of chain) {
    if (e instanceof UrlRefusedError || e instanceof ResponseTooLargeError || e instanceof FetchFailedError) return e;
  }
  if (options.signal?.aborted) return options.signal.reason as unknown;
  if (deadline.aborted || signal.aborted) return new FetchFailedError(`no complete answer from ${url.host} within ${duration(options.timeoutMs ?? 60_000)}`);
  const codes = chain.map(codeOf);
  const has = (code: string) => codes.includes(code);
  if (has('UND_ERR_CONNECT_TIMEOUT')) return new FetchFailedError(`could not connect to ${url.host} in time`);
  if (has('UND_ERR_HEADERS_TIMEOUT')) return new FetchFailedError(`${url.host} did not answer in time`);
  if (has('UND_ERR_BODY_TIMEOUT')) return new FetchFailedError(`${url.host} stopped sending`);
  if (has('ENOTFOUND') || has('EAI_AGAIN')) return new FetchFailedError(`${url.hostname} cannot be resolved`);
  if (has('ECONNREFUSED')) return new FetchFailedError(`${url.host} refused the connection`);
  const code = codes.find((c) => c !== undefined);
  return new FetchFailedError(`could not fetch from ${url.host} (${code ?? (error instanceof Error ? error.message : 'unknown error')})`);
}

function limitBody(body: Readable, maxBytes: number, fail: (error: unknown) => unknown, done: () => void): Readable {
  async function* limited() {
    let size = 0;
    try {
      for await (const chunk of body) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (size > maxBytes) throw new ResponseTooLargeError(maxBytes);
        yield bytes;
      }
    } catch (error) {
      throw fail(error);
    }
  }
  const out = Readable.from(limited(), { objectMode: false });
  // However the body ends (read to the end, failed, or destroyed unread), free the connection.
  out.once('close', () => {
    discard(body);
    done();
  });
  return out;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * An agent whose every new connection goes through the guarded resolver: for callers that send
 * many requests under one policy (webhook deliveries) and want keep-alive connections.
 */
export async function createGuardedAgent(options: UrlGuardOptions & { connectTimeoutMs?: number }): Promise<Agent> {
  const { Agent: UndiciAgent } = await import('undici');
  return new UndiciAgent({ connect: { timeout: options.connectTimeoutMs ?? 10_000, lookup: guardedLookup(options) } });
}

/**
 * The keep-alive agent of a policy, for the fetches that bring none: a connection is checked when
 * it is opened, so a reused one goes to the address that was checked. An agent of its own per
 * fetch (a connection made and torn down each time) had been most of a media fetch's CPU. Fetches
 * with their own resolver or refusal (tests) keep an agent of their own. Idle connections do not
 * keep the process alive (undici unrefs them).
 */
const policyAgents = new Map<string, Promise<Agent>>();
function policyAgent(options: SafeFetchOptions): Promise<Agent> | null {
  if (options.lookup || options.refusal) return null;
  const key = `${options.allowPrivate}|${options.requireHttps ?? false}|${options.connectTimeoutMs ?? ''}`;
  let agent = policyAgents.get(key);
  if (!agent) {
    agent = createGuardedAgent(options);
    policyAgents.set(key, agent);
  }
  return agent;
}

/** Fetches a URL a client gave, under the guards above. Throws UrlRefusedError or FetchFailedError. */
export async function safeFetch(input: string | URL, options: SafeFetchOptions): Promise<SafeResponse> {
  // undici is loaded on first use: a large module most processes need rarely.
  const { request } = await import('undici');
  const maxRedirects = options.maxRedirects ?? 5;
  const maxBytes = options.maxBytes ?? Number.MAX_SAFE_INTEGER;
  const deadline = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  // A shared agent (keep-alive connections, each checked when it was opened) is the caller's or
  // the policy's; otherwise (a resolver of its own) each fetch has its own, closed with the fetch.
  const shared = options.agent ?? (await policyAgent(options));
  const agent = shared ?? (await createGuardedAgent(options));
  let closed = false;
  const close = () => {
    if (closed || shared) return;
    closed = true;
    void agent.destroy().catch(() => {});
  };
  let url = checkUrlShape(input, options);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let headers = { ...options.headers };
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await request(url, {
        method: method as 'GET',
        headers,
        body,
        dispatcher: agent,
        signal,
        headersTimeout: options.headersTimeoutMs ?? 30_000,
        bodyTimeout: options.idleTimeoutMs ?? 30_000,
      });
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && maxRedirects > 0 && typeof location === 'string') {
        discard(response.body);
        if (redirects >= maxRedirects) throw new FetchFailedError(`more than ${maxRedirects} redirects`);
        const next = checkUrlShape(new URL(location, url), options);
        if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CROSS_ORIGIN_DROPPED.includes(name.toLowerCase())));
        if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      const length = Number(response.headers['content-length']);
      if (Number.isFinite(length) && length > maxBytes) {
        discard(response.body);
        throw new ResponseTooLargeError(maxBytes);
      }
      const current = url;
      return {
        status: response.statusCode,
        headers: flatHeaders(response.headers),
        url: current.href,
        redirects,
        body: limitBody(response.body, maxBytes, (error) => explain(error, current, options, signal, deadline), close),
      };
    }
  } catch (error) {
    close();
    throw explain(error, url, options, signal, deadline);
  }
}
