// Each simulated host is one table of routes matched on the path after the host segment
// (`{base}/graph.facebook.com/v24.0/me` → host `graph.facebook.com`, path `/me`, version
// `v24.0`). The host's own table answers its own 404s, in its own error shape.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HostErrors } from './platform-error.ts';
import type { SandboxState } from './state.ts';

export interface RouteContext {
  state: SandboxState;
  request: FastifyRequest;
  reply: FastifyReply;
  host: string;
  method: string;
  /** The path after the host, without the Graph version and without a trailing slash. */
  path: string;
  /** `v24.0` when the path had one (Graph hosts). */
  version: string | null;
  params: Record<string, string>;
  /** Query parameters, last value wins. */
  query: Record<string, string>;
  body: unknown;
  /** The absolute URL of the sandbox root, e.g. `http://127.0.0.1:4010/sandbox`. */
  baseUrl: string;
}

export type RouteHandler = (ctx: RouteContext) => unknown;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

export interface HostOptions {
  /** Graph hosts take an optional leading `/vNN.N` on every path (platforms.md §1). */
  graphVersion?: boolean;
}

export class Host {
  readonly name: string;
  readonly errors: HostErrors;
  readonly graphVersion: boolean;
  #routes: Route[] = [];

  constructor(name: string, errors: HostErrors, options: HostOptions = {}) {
    this.name = name;
    this.errors = errors;
    this.graphVersion = options.graphVersion ?? false;
  }

  get(pattern: string, handler: RouteHandler): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: RouteHandler): this {
    return this.add('POST', pattern, handler);
  }
  put(pattern: string, handler: RouteHandler): this {
    return this.add('PUT', pattern, handler);
  }
  delete(pattern: string, handler: RouteHandler): this {
    return this.add('DELETE', pattern, handler);
  }

  /** Routes are tried in the order added: add static paths before `:param` ones. */
  add(method: string, pattern: string, handler: RouteHandler): this {
    this.#routes.push({ method, segments: split(pattern), handler });
    return this;
  }

  /** Splits off the version, then finds the route; null when nothing matches. */
  match(method: string, rawPath: string): { route: RouteHandler; params: Record<string, string>; path: string; version: string | null } | { allowed: false } | null {
    let path = rawPath.replace(/\/+$/, '') || '/';
    let version: string | null = null;
    const versionMatch = this.graphVersion ? /^\/(v\d+\.\d+)(?=\/|$)/.exec(path) : null;
    if (versionMatch?.[1]) {
      version = versionMatch[1];
      path = path.slice(version.length + 1) || '/';
    }
    const segments = split(path);
    let pathMatched = false;
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      pathMatched = true;
      if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue;
      return { route: route.handler, params, path, version };
    }
    return pathMatched ? { allowed: false } : null;
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], segments: string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] ?? '';
    const s = segments[i] ?? '';
    if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(s);
    else if (p !== s) return null;
  }
  return params;
}
