// Calls to the Bluesky sandbox over HTTP: XRPC queries (GET) and procedures (POST JSON or raw
// bytes) on a host, with or without a Bearer token, and a session of the seeded account.
import assert from 'node:assert/strict';
import type { RunningSandbox } from '../../src/sandbox/index.ts';

export type Body = Record<string, unknown>;

/** A value inside an answer by dotted path (`thread.replies.0.post.uri`). */
export const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);
/** The same, as a string (fails when it is not one). */
export function str(value: unknown, path: string): string {
  const found = at(value, path);
  assert.equal(typeof found, 'string', `${path} in ${JSON.stringify(value)}`);
  return found as string;
}

export interface Answer {
  status: number;
  body: Body;
  headers: Headers;
}

export const APP_PASSWORD = 'sand-box0-app0-pass';
export const HANDLE = 'sandbox.bsky.social';

export function xrpc(sb: RunningSandbox, host = 'bsky.social') {
  const base = `${sb.url}/${host}/xrpc`;
  const send = async (method: string, nsid: string, options: { query?: Record<string, string | string[]>; json?: unknown; bytes?: Buffer; type?: string; token?: string | undefined } = {}): Promise<Answer> => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) for (const v of [value].flat()) params.append(key, v);
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.bytes) {
      headers['content-type'] = options.type ?? 'application/octet-stream';
      body = options.bytes;
    }
    const res = await fetch(`${base}/${nsid}${params.size ? `?${params.toString()}` : ''}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Body) : {}, headers: res.headers };
  };
  return {
    get: (nsid: string, query: Record<string, string | string[]> = {}, token?: string) => send('GET', nsid, { query, token }),
    post: (nsid: string, json: unknown, token?: string) => send('POST', nsid, { json, token }),
    bytes: (nsid: string, bytes: Buffer, type: string, token?: string, query: Record<string, string> = {}) => send('POST', nsid, { bytes, type, token, query }),
  };
}

export interface Session {
  accessJwt: string;
  refreshJwt: string;
  did: string;
  handle: string;
}

export async function signIn(sb: RunningSandbox, identifier = HANDLE, password = APP_PASSWORD): Promise<Session> {
  const res = await xrpc(sb).post('com.atproto.server.createSession', { identifier, password });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as unknown as Session;
}

export async function control(sb: RunningSandbox, path: string, json?: unknown): Promise<Answer> {
  const res = await fetch(`${sb.url}/_sandbox/${path}`, json === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
  return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
}

export const now = (sb: RunningSandbox): string => new Date(sb.state.clock.now()).toISOString();
