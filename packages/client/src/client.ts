// The client: one typed method per operation (its operationId: createPost, listConversations …),
// the API key on every request, an x-request-id on every write (kept across retries, so the
// service answers a retried write once), retries that are safe (429 after Retry-After; 5xx and
// network errors only for reads and for writes that take x-request-id), async iterators over the
// lists that page, and errors as exceptions carrying the API's `code`.
import { randomUUID } from 'node:crypto';
import { errorFor, NetworkError, SocialApiError } from './errors.ts';
import { OPERATIONS, type OperationId } from './generated/operations.ts';
import type { operations } from './generated/schema.ts';

type Op<K extends OperationId> = operations[K];
type Part<O, P extends string> = O extends { parameters: infer X } ? (P extends keyof X ? X[P] : never) : never;
type Field<Name extends string, T> = [T] extends [never] ? unknown : [T] extends [undefined] ? unknown : undefined extends T ? { [K in Name]?: Exclude<T, undefined> } : { [K in Name]: T };
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { body?: B }
    : O extends { requestBody: { content: { 'multipart/form-data': unknown } } }
      ? { body: FormData }
      : unknown;

/** What a call takes: path parameters, query, body, and per-call options. */
export type Args<K extends OperationId> = Field<'path', Part<Op<K>, 'path'>> &
  Field<'query', Part<Op<K>, 'query'>> &
  BodyOf<Op<K>> & {
    /** x-request-id for this write (one is made when left out). */
    requestId?: string;
    signal?: AbortSignal;
  };

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** What a call answers: its 200, 201 or 202 body. */
export type Answer<K extends OperationId> =
  200 extends keyof Responses<Op<K>> ? JsonOf<Responses<Op<K>>[200]>
  : 201 extends keyof Responses<Op<K>> ? JsonOf<Responses<Op<K>>[201]>
  : 202 extends keyof Responses<Op<K>> ? JsonOf<Responses<Op<K>>[202]>
  : undefined;

type Method<K extends OperationId> = Record<never, never> extends Args<K> ? (args?: Args<K>) => Promise<Answer<K>> : (args: Args<K>) => Promise<Answer<K>>;
export type Operations = { [K in OperationId]: Method<K> };

type Paged = { [K in OperationId]: (typeof OPERATIONS)[K] extends { page: unknown } ? K : never }[OperationId];
type ItemOf<K extends Paged> = (typeof OPERATIONS)[K] extends { page: { items: infer I } } ? (I extends keyof Answer<K> ? Answer<K>[I] extends ReadonlyArray<infer T> ? T : never : never) : never;

export interface ClientOptions {
  /** An API key: sk_… */
  apiKey: string;
  /** The service's address, e.g. http://localhost:3000 (the /api/v1 prefix is added). */
  baseUrl: string;
  /** Attempts after the first (3). */
  maxRetries?: number;
  /** First back-off in milliseconds, doubled each time (250); a Retry-After takes precedence. */
  retryDelayMs?: number;
  /** The longest wait between attempts, in milliseconds (30 s). */
  maxDelayMs?: number;
  fetch?: typeof fetch;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });

function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

interface Call {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  requestId?: string;
  signal?: AbortSignal;
}

export class SocialApiBase {
  readonly #options: Required<Omit<ClientOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.#options = { maxRetries: 3, retryDelayMs: 250, maxDelayMs: 30_000, fetch: globalThis.fetch.bind(globalThis), ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      Object.defineProperty(this, id, { value: (args?: Call) => this.request(id, args ?? {}), enumerable: false });
    }
  }

  /** Calls an operation by its operationId. */
  async request<K extends OperationId>(operationId: K, args: Args<K> | Call): Promise<Answer<K>> {
    const call = args as Call;
    const info = OPERATIONS[operationId];
    const path = info.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = call.path?.[name];
      if (value === undefined) throw new TypeError(`${operationId}: path parameter ${name} is required`);
      return encodeURIComponent(String(value));
    });
    const url = new URL(`${this.#options.baseUrl}/api/v1${path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one));
    }
    const write = info.method !== 'get';
    const headers: Record<string, string> = { authorization: `Bearer ${this.#options.apiKey}`, accept: 'application/json' };
    if (write) headers['x-request-id'] = call.requestId ?? randomUUID();
    let body: string | FormData | undefined;
    if (call.body instanceof FormData) body = call.body;
    else if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    // A read, or a write the service answers once per x-request-id, can be sent again after a
    // failure whose outcome is unknown; any other write only after a 429 (refused before it ran).
    const replayable = !write || info.idempotent;
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(this.#options.maxDelayMs, this.#options.retryDelayMs * 2 ** attempt);
      let res: Response;
      try {
        res = await this.#options.fetch(url, { method: info.method.toUpperCase(), headers, body, signal: call.signal });
      } catch (error) {
        if (call.signal?.aborted) throw error;
        if (replayable && attempt < this.#options.maxRetries) {
          await sleep(backoff, call.signal);
          continue;
        }
        throw new NetworkError(`${operationId}: ${(error as Error).message}`, { cause: error });
      }
      const text = await res.text();
      const parsed: unknown = text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text || undefined;
      if (res.ok) return parsed as Answer<K>;
      const error = errorFor(res.status, parsed, res.headers.get('request-id'));
      const retryable =
        res.status === 429 ||
        (replayable && (res.status >= 500 || (res.status === 409 && error.code === 'REQUEST_IN_PROGRESS')));
      if (!retryable || attempt >= this.#options.maxRetries) throw error;
      await sleep(Math.min(this.#options.maxDelayMs, retryAfterMs(res.headers.get('retry-after')) ?? backoff), call.signal);
    }
  }

  /**
   * Every item of a list that pages (listConversations, listInboxComments, listCampaigns …), page
   * after page, following the answer's cursor until the last page.
   */
  async *paginate<K extends Paged>(operationId: K, args?: Args<K>): AsyncGenerator<ItemOf<K>> {
    const page = (OPERATIONS[operationId] as { page: { items: string; cursor: string; param: string } }).page;
    const call = { ...(args as Call | undefined) };
    for (;;) {
      const answer = (await this.request(operationId, call)) as Record<string, unknown>;
      for (const item of (answer[page.items] as ItemOf<K>[] | undefined) ?? []) yield item;
      const cursor = answer[page.cursor];
      if (cursor === null || cursor === undefined || cursor === '') return;
      call.query = { ...call.query, [page.param]: cursor };
    }
  }
}

export { SocialApiError };
