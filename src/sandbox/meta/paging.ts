// Graph cursor paging (platforms.md §1.6): `{data, paging:{cursors:{before,after}, next, previous}}`,
// with `limit`, `after` and `before`. Cursors are opaque (base64 of a position); `next` points
// back at the sandbox, so an adapter that follows it stays on the same stand-in.
import type { RouteContext } from '../core/router.ts';
import type { GraphInput } from './params.ts';
import { str } from './params.ts';

const encode = (n: number) => Buffer.from(`pos:${n}`).toString('base64url');
const decode = (cursor: string | undefined): number | null => {
  if (!cursor) return null;
  const match = /^pos:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : null;
};

export function pageOf<T>(ctx: RouteContext, input: GraphInput, items: T[], defaultLimit = 25): { data: T[]; paging?: Record<string, unknown> } {
  const limit = Math.max(1, Math.min(Number(str(input, 'limit') ?? defaultLimit) || defaultLimit, 100));
  const after = decode(str(input, 'after'));
  const before = decode(str(input, 'before'));
  let start = after !== null ? after + 1 : 0;
  if (before !== null) start = Math.max(0, before - limit);
  const end = before !== null ? before : start + limit;
  const data = items.slice(start, end);
  if (!data.length) return { data };
  const cursors = { before: encode(start), after: encode(start + data.length - 1) };
  const paging: Record<string, unknown> = { cursors };
  const link = (key: 'after' | 'before', cursor: string) => {
    const url = new URL(`${ctx.baseUrl}/${ctx.host}${ctx.version ? `/${ctx.version}` : ''}${ctx.path}`);
    for (const [k, v] of Object.entries(ctx.query)) if (k !== 'after' && k !== 'before') url.searchParams.set(k, v);
    url.searchParams.set('limit', String(limit));
    url.searchParams.set(key, cursor);
    return url.toString();
  };
  if (start + data.length < items.length) paging.next = link('after', cursors.after);
  if (start > 0) paging.previous = link('before', cursors.before);
  return { data, paging };
}
