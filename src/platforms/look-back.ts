// Looking back through an account's listing (newest first) for what an interrupted call made
// since it began (create-once.ts). One page is not enough: a busy account, or many posts queued
// to one account, can make more than a page of posts between the call and the look, and a look
// that misses the post sends it a second time. So the look follows the platform's own paging
// until it has seen everything made since `since` (an item older than it, or the listing's end),
// within a bound of pages; a look that stops at the bound with nothing found cannot say that the
// call made nothing, and says so (LookTooShort) instead of answering "not found".

/** Pages a look reads at most: 10 pages of 100 is as far back as a reddit listing goes. */
export const LOOK_BACK_PAGES = 10;

/** One page of a listing, newest first, and the cursor of the next one (null at the end). */
export interface ListingPage<I, C> {
  items: I[];
  next: C | null;
}

export interface LookBack<I, C> {
  /** Reads one page: the first with `cursor` null. */
  page: (cursor: C | null) => Promise<ListingPage<I, C>>;
  /** When the item was made (ms); null when the listing does not say. */
  madeAt: (item: I) => number | null;
  /** Whether the item is what the call made (content, and no other target holding it). */
  matches: (item: I) => boolean | Promise<boolean>;
  /** Pages to read at most (default LOOK_BACK_PAGES). */
  maxPages?: number;
}

export interface LookResult<I> {
  /** The earliest match made since `since`: the interrupted call's, if several look alike. */
  found: I | null;
  /** Whether the look saw everything made since `since` (false: it stopped at the bound). */
  complete: boolean;
  pages: number;
  items: number;
}

/** The look reached its bound without seeing back to the call's start, and found nothing. */
export class LookTooShort extends Error {
  readonly items: number;
  constructor(items: number) {
    super(`the account made more than ${items} posts since the call began, more than a look reads`);
    this.name = 'LookTooShort';
    this.items = items;
  }
}

export async function lookBack<I, C>(since: number, look: LookBack<I, C>): Promise<LookResult<I>> {
  const maxPages = look.maxPages ?? LOOK_BACK_PAGES;
  const candidates: I[] = [];
  let cursor: C | null = null;
  let pages = 0;
  let items = 0;
  while (pages < maxPages) {
    const page = await look.page(cursor);
    pages += 1;
    items += page.items.length;
    let passedSince = false;
    for (const item of page.items) {
      const at = look.madeAt(item);
      if (at !== null && at < since) {
        passedSince = true;
        break;
      }
      if (at !== null) candidates.push(item);
    }
    if (passedSince || page.next === null || page.items.length === 0) return { found: await earliestMatch(candidates, look), complete: true, pages, items };
    cursor = page.next;
  }
  return { found: await earliestMatch(candidates, look), complete: false, pages, items };
}

/** Oldest first: the interrupted call's post is the earliest one made after it began. */
async function earliestMatch<I, C>(newestFirst: I[], look: LookBack<I, C>): Promise<I | null> {
  for (const item of [...newestFirst].reverse()) if (await look.matches(item)) return item;
  return null;
}

/** A create-once look's answer: what was found, or null only when the look saw back to `since`. */
export async function confirmedLook<I, C>(since: number, look: LookBack<I, C>): Promise<I | null> {
  const result = await lookBack(since, look);
  if (result.found === null && !result.complete) throw new LookTooShort(result.items);
  return result.found;
}
