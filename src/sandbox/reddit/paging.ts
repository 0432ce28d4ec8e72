// reddit listing paging: `limit` (1–100, default 25), `after` / `before` (a fullname in the
// listing: the page starts just past it, or ends just before it) and `count` (how many the
// client has seen; reddit uses it only for numbering). The answer's `after` names the last item
// when more follow and `before` the first when some precede, null otherwise. A cursor that is no
// longer in the listing (a deleted thing) gives an empty page, as on reddit.
import type { RouteContext } from '../core/router.ts';
import { fullname, type RedditThing } from './store.ts';

export interface ListingSlice {
  things: RedditThing[];
  after: string | null;
  before: string | null;
}

export function sliceListing(ctx: RouteContext, things: RedditThing[]): ListingSlice {
  const limit = Math.max(1, Math.min(Number(ctx.query.limit ?? 25) || 25, 100));
  const names = things.map(fullname);
  const cursor = (key: 'after' | 'before'): number | null => {
    const value = ctx.query[key];
    return value ? names.indexOf(value) : null;
  };
  const after = cursor('after');
  const before = cursor('before');
  if (after === -1 || before === -1) return { things: [], after: null, before: null };
  const start = after !== null ? after + 1 : before !== null ? Math.max(0, before - limit) : 0;
  const end = before !== null && after === null ? before : start + limit;
  const page = things.slice(start, end);
  const last = page.at(-1);
  const first = page[0];
  return {
    things: page,
    after: last && start + page.length < things.length ? fullname(last) : null,
    before: first && start > 0 ? fullname(first) : null,
  };
}
