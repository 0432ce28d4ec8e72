// A Graph edge read as a look-back listing (look-back.ts): `limit` items a page, newest first,
// the last page known by its missing `paging.next` (platforms.md §1.6). The next page is asked
// with the parameters of `paging.next`: cursor-paged edges put `after` there, while time-paged
// ones (a Page feed) put `until` and a paging token, with no `cursors` at all. The parameters
// are sent to the same edge, so the call stays on the client's own host and token.
import { list, obj, str, graphTimeMs, type Json } from '../json.ts';
import type { LookBack } from '../look-back.ts';

type Params = Record<string, string | number>;

/** Reads one page of an edge with these params. */
export type EdgeReader = (params: Params) => Promise<Json>;

export const GRAPH_PAGE_LIMIT = 100;

/** Credentials travel in the header, never copied from a link. */
const NOT_COPIED = new Set(['access_token', 'appsecret_proof']);

/** The parameters that ask for the page after this one; null on the last page. */
export function nextPageParams(paging: Json): Params | null {
  const next = str(paging.next);
  if (!next) return null;
  const after = str(obj(paging.cursors).after);
  try {
    const params: Params = {};
    for (const [key, value] of new URL(next).searchParams) if (!NOT_COPIED.has(key)) params[key] = value;
    return params;
  } catch {
    return after ? { after } : null;
  }
}

/** The look-back over an edge: items are matched with `matches`, dated by `timeField`. */
export function graphLook(read: EdgeReader, params: Params, timeField: string, matches: (item: Json) => boolean | Promise<boolean>): LookBack<Json, Params> {
  return {
    page: async (next) => {
      // The first page's parameters stay (since, fields) unless the link says otherwise.
      const body = await read({ limit: GRAPH_PAGE_LIMIT, ...params, ...next });
      return { items: list(body.data).map(obj), next: nextPageParams(obj(body.paging)) };
    },
    madeAt: (item) => graphTimeMs(item[timeField]),
    matches,
  };
}
