// Graph cursor paging as the comment readers use it (platforms.md §1.6): the next page's cursor
// is `paging.cursors.after`, and there is a next page only when `paging.next` is given.
import { obj, str, type Json } from '../json.ts';

export function nextCursor(body: Json): string | null {
  const paging = obj(body.paging);
  return str(paging.next) ? str(obj(paging.cursors).after) : null;
}
