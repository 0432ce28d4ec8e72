// GET /search?type=adinterest|adinterestsuggestion|adgeolocation|adlocale|adTargetingCategory
// (platforms.md §9.7) over the sandbox catalogue. Needs a user token (any permission); matching is case-insensitive on the
// name's prefix or words.
import type { RouteContext } from '../core/router.ts';
import { graphToken } from '../meta/auth.ts';
import { graphError } from '../meta/graph-error.ts';
import { graphInput, list, str } from '../meta/params.ts';
import { CATEGORIES, INTERESTS, LOCALES, LOCATIONS } from './catalog.ts';

const CATEGORY_CLASSES = ['behaviors', 'demographics'];

const matches = (name: string, q: string) => {
  const n = name.toLowerCase();
  const needle = q.toLowerCase();
  return n.startsWith(needle) || n.split(/[\s()]+/).some((w) => w.startsWith(needle));
};

export function adsSearch(ctx: RouteContext): unknown {
  const input = graphInput(ctx);
  graphToken(ctx, input, { platforms: ['facebook'] });
  const type = str(input, 'type');
  const limit = Math.max(1, Math.min(Number(str(input, 'limit') ?? 25) || 25, 1000));
  const q = str(input, 'q') ?? '';
  switch (type) {
    case 'adinterest':
      return { data: INTERESTS.filter((i) => !q || matches(i.name, q)).slice(0, limit) };
    case 'adinterestsuggestion': {
      const given = list(input, 'interest_list') ?? [];
      const topics = new Set(INTERESTS.filter((i) => given.some((g) => i.name.toLowerCase() === g.toLowerCase())).map((i) => i.topic));
      return { data: INTERESTS.filter((i) => topics.has(i.topic) && !given.some((g) => i.name.toLowerCase() === g.toLowerCase())).slice(0, limit) };
    }
    case 'adgeolocation': {
      const types = list(input, 'location_types') ?? ['country', 'region', 'city', 'zip'];
      return { data: LOCATIONS.filter((l) => types.includes(l.type) && (!q || matches(l.name, q) || l.key.toLowerCase() === q.toLowerCase())).slice(0, limit) };
    }
    case 'adlocale':
      return { data: LOCALES.filter((l) => !q || matches(l.name, q)).slice(0, limit) };
    case 'adTargetingCategory': {
      const wanted = str(input, 'class');
      if (wanted !== undefined && !CATEGORY_CLASSES.includes(wanted)) throw graphError({ code: 100, message: `(#100) Param class must be one of {${CATEGORY_CLASSES.join(', ')}}` });
      return { data: CATEGORIES.filter((c) => (!wanted || c.type === wanted) && (!q || matches(c.name, q))).slice(0, limit) };
    }
    default:
      throw graphError({ code: 100, message: '(#100) Param type must be one of {adinterest, adinterestsuggestion, adgeolocation, adlocale, adTargetingCategory} in the sandbox' });
  }
}
