// A Graph edge read as a look-back listing (look-back.ts): `limit` items a page, newest first,
// the next page asked with `after` = `paging.cursors.after`, and the last page known by its
// missing `paging.next` (platforms.md §1.6).
import { list, obj, str, graphTimeMs, type Json } from '../json.ts';
import type { LookBack } from '../look-back.ts';

/** Reads one page of an edge with these params (the cursor added when there is one). */
export type EdgeReader = (params: Record<string, string | number>) => Promise<Json>;

export const GRAPH_PAGE_LIMIT = 100;

/** The look-back over an edge: items are matched with `matches`, dated by `timeField`. */
export function graphLook(read: EdgeReader, params: Record<string, string | number>, timeField: string, matches: (item: Json) => boolean | Promise<boolean>): LookBack<Json, string> {
  return {
    page: async (after) => {
      const body = await read({ limit: GRAPH_PAGE_LIMIT, ...params, ...(after ? { after } : {}) });
      const paging = obj(body.paging);
      const next = str(paging.next) ? str(obj(paging.cursors).after) : null;
      return { items: list(body.data).map(obj), next };
    },
    madeAt: (item) => graphTimeMs(item[timeField]),
    matches,
  };
}
