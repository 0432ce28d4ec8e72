// A reddit link's comment tree as it is loaded piece by piece (platforms.md §6.2): the nested
// Listing of `GET /comments/{article}` first, then the flat `things` of `/api/morechildren`.
// Both name each comment's parent (`parent_id`), so the tree is rebuilt from that alone; the
// comments reddit left out appear as `more` stubs (kind `more`, `children`: their base-36 ids,
// all children of the stub's `parent_id`) and wait in `pending` until they are asked for.
// A "continue this thread" stub (id `_`, no children: the depth limit) marks its parent in
// `continued`: the thread under it is read with `?comment=`. Order is reddit's `sort=old`: ids
// are handed out in sequence, so a comment's id orders it by age.
import { list, obj, str, type Json } from '../json.ts';

/** The age order of two fullnames (`t1_…`) or base-36 ids. */
export const idValue = (name: string): number => parseInt(name.replace(/^t\d_/, ''), 36);
const byAge = (a: string, b: string) => idValue(a) - idValue(b);

export class CommentTree {
  /** Loaded comments by fullname: reddit's `data`. */
  readonly comments = new Map<string, Json>();
  /** Comments listed in a `more` stub but not loaded: fullname → the parent the stub sat under. */
  readonly pending = new Map<string, string>();
  /** Comments whose replies were cut by the depth limit ("continue this thread"). */
  readonly continued = new Set<string>();

  readonly linkId: string;

  constructor(linkId: string) {
    this.linkId = linkId;
  }

  /** A Listing of comments with their nested `replies` Listings (the tree answer's second item). */
  addListing(listing: unknown): void {
    for (const child of list(obj(obj(listing).data).children)) {
      const data = this.#add(child);
      if (data) this.addListing(data.replies);
    }
  }

  /**
   * The flat `json.data.things` of /api/morechildren, answering `asked`. An asked comment neither
   * answered nor listed again in a stub (the answer is full) was deleted meanwhile: it is
   * forgotten, so nobody asks for it again.
   */
  addThings(things: unknown[], asked: readonly string[]): void {
    const relisted = new Set<string>();
    for (const thing of things) {
      const { kind, data } = obj(thing);
      if (kind === 'more') for (const id of list(obj(data).children)) relisted.add(`t1_${String(id)}`);
      this.#add(thing);
    }
    for (const name of asked) if (!relisted.has(name)) this.pending.delete(name);
  }

  /** The thread under `parent` (a `?comment=` answer): it is no longer cut there. */
  addThread(parent: string, listing: unknown): void {
    this.addListing(listing);
    this.continued.delete(parent);
  }

  /** Top-level comments, loaded or pending, oldest first. */
  topLevel(): string[] {
    const loaded = [...this.comments].filter(([, data]) => data.parent_id === this.linkId).map(([name]) => name);
    const waiting = [...this.pending].filter(([, parent]) => parent === this.linkId).map(([name]) => name);
    return [...loaded, ...waiting].sort(byAge);
  }

  /** The pending comments that belong under `roots` (the roots themselves included), oldest first. */
  pendingUnder(roots: ReadonlySet<string>): string[] {
    return [...this.pending].filter(([name, parent]) => roots.has(name) || this.#isUnder(parent, roots)).map(([name]) => name).sort(byAge);
  }

  /** The cut threads under `roots` (the roots themselves included), oldest first. */
  continuedUnder(roots: ReadonlySet<string>): string[] {
    return [...this.continued].filter((name) => this.#isUnder(name, roots)).sort(byAge);
  }

  /** True when `root` or a reply under it is still to be loaded. */
  incomplete(root: string): boolean {
    const one = new Set([root]);
    return this.pendingUnder(one).length > 0 || this.continuedUnder(one).length > 0;
  }

  /** Each loaded root followed by its loaded descendants, every reply after its parent, oldest first. */
  ordered(roots: readonly string[]): Json[] {
    const children = new Map<string, string[]>();
    for (const [name, data] of this.comments) {
      const parent = str(data.parent_id) ?? '';
      const siblings = children.get(parent);
      if (siblings) siblings.push(name);
      else children.set(parent, [name]);
    }
    const out: Json[] = [];
    const visit = (name: string) => {
      const data = this.comments.get(name);
      if (!data) return;
      out.push(data);
      for (const reply of (children.get(name) ?? []).sort(byAge)) visit(reply);
    };
    for (const root of roots) visit(root);
    return out;
  }

  #add(thing: unknown): Json | null {
    const { kind, data: raw } = obj(thing);
    const data = obj(raw);
    if (kind === 'more') {
      const parent = str(data.parent_id);
      if (parent && parent !== this.linkId && list(data.children).length === 0) this.continued.add(parent);
      for (const id of list(data.children)) {
        if (!parent || typeof id !== 'string' || !id || this.comments.has(`t1_${id}`)) continue;
        this.pending.set(`t1_${id}`, parent);
      }
      return null;
    }
    const name = str(data.name);
    if (kind !== 't1' || !name) return null;
    this.comments.set(name, data);
    this.pending.delete(name);
    return data;
  }

  #isUnder(name: string, roots: ReadonlySet<string>): boolean {
    for (let at: string | null = name, hops = 0; at && at !== this.linkId && hops < 10_000; hops++) {
      if (roots.has(at)) return true;
      at = str(this.comments.get(at)?.parent_id);
    }
    return false;
  }
}
