// Fault injection: the next N requests on a host and path answer a platform error, a 5xx, a
// rate limit, or arrive late (issue 3, point 7). Matching is on the path after the host, with
// the Graph version ignored, so `/me/accounts` matches `/v24.0/me/accounts`.
export type FaultKind = 'error' | 'server_error' | 'rate_limit' | 'delay';

export interface FaultInput {
  /** The real host (`graph.facebook.com`); omitted: every host. */
  host?: string | undefined;
  /** A glob on the path: `*` one segment, `**` anything; omitted: every path. */
  path?: string | undefined;
  method?: string | undefined;
  /** How many requests it applies to (default 1). */
  times?: number | undefined;
  /** How many matching requests pass untouched before it applies (default 0): the second of two alike calls. */
  after?: number | undefined;
  kind: FaultKind;
  status?: number | undefined;
  /** Graph `code`, TikTok `error.code`, or reddit's envelope error code. */
  code?: string | number | undefined;
  subcode?: number | undefined;
  message?: string | undefined;
  /** A raw body to answer instead of the platform's shape (with `status`). */
  body?: unknown;
  delayMs?: number | undefined;
}

export interface Fault extends FaultInput {
  id: number;
  remaining: number;
  /** Matching requests still to let through. */
  passing: number;
}

export class FaultBook {
  #faults: Fault[] = [];
  #nextId = 1;

  add(input: FaultInput): Fault {
    const fault: Fault = { ...input, id: this.#nextId++, remaining: input.times ?? 1, passing: input.after ?? 0 };
    this.#faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.#faults = [];
  }

  /** Consumes the faults that apply to this request: every delay, and the first answering one. */
  take(host: string, method: string, path: string): { delayMs: number; answer: Fault | null } {
    let delayMs = 0;
    let answer: Fault | null = null;
    for (const fault of this.#faults) {
      if (fault.remaining <= 0 || !matches(fault, host, method, path)) continue;
      if (fault.passing > 0) {
        fault.passing--;
      } else if (fault.kind === 'delay') {
        delayMs += fault.delayMs ?? 1000;
        fault.remaining--;
      } else if (!answer) {
        answer = { ...fault };
        fault.remaining--;
      }
    }
    this.#faults = this.#faults.filter((f) => f.remaining > 0);
    return { delayMs, answer };
  }
}

function matches(fault: Fault, host: string, method: string, path: string): boolean {
  if (fault.host && fault.host !== host) return false;
  if (fault.method && fault.method.toUpperCase() !== method) return false;
  if (!fault.path) return true;
  const pattern = globToRegExp(fault.path);
  const bare = path.replace(/^\/v\d+\.\d+(?=\/|$)/, '') || '/';
  return pattern.test(trimSlash(path)) || pattern.test(trimSlash(bare));
}

export function globToRegExp(glob: string): RegExp {
  let source = '';
  const text = trimSlash(glob.startsWith('/') ? glob : `/${glob}`);
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (ch === '*' && text.charAt(i + 1) === '*') {
      source += '.*';
      i++;
    } else if (ch === '*') {
      source += '[^/]*';
    } else {
      source += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
