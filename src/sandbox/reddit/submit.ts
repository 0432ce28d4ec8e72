// POST /api/submit (platforms.md §6.2): self and link posts, checked the way reddit checks them:
// subreddit exists and allows the kind, title present and at most 300 characters, text at most
// 40000, URL valid and not already submitted (unless resubmit), flair from the subreddit's
// templates and present when the subreddit requires it. Answers in the `api_type=json` envelope.
import type { RouteContext } from '../core/router.ts';
import { isHttpUrl } from '../oauth/consent.ts';
import { redditAuth } from './auth.ts';
import type { ErrorTriplet } from './errors.ts';
import { fullname, type RedditThing } from './store.ts';
import { slug } from './things.ts';

export const form = (ctx: RouteContext): Record<string, string> =>
  Object.fromEntries(Object.entries((ctx.body ?? {}) as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));

export const truthy = (value: string | undefined): boolean => value === 'true' || value === '1' || value === 'on';

/** The answer: the JSON envelope with api_type=json, the old jQuery shape without. */
export function envelope(input: Record<string, string>, errors: ErrorTriplet[], data?: unknown): unknown {
  if (input.api_type !== 'json') return { jquery: [], success: errors.length === 0 };
  return data === undefined || errors.length ? { json: { errors } } : { json: { errors, data } };
}

export function submit(ctx: RouteContext): unknown {
  const { user } = redditAuth(ctx, 'submit');
  const input = form(ctx);
  const state = ctx.state;
  const errors: ErrorTriplet[] = [];
  const srName = (input.sr ?? '').trim();
  const sub = srName ? state.people.subreddit(srName) : undefined;
  if (!srName) errors.push(['SUBREDDIT_REQUIRED', 'you must specify a subreddit', 'sr']);
  else if (!sub) errors.push(['SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr']);
  const kind = input.kind ?? 'link';
  if (kind !== 'self' && kind !== 'link') errors.push(['INVALID_OPTION', 'that option is not valid', 'kind']);
  const title = input.title ?? '';
  if (!title.trim()) errors.push(['NO_TEXT', 'we need something here', 'title']);
  else if ([...title].length > 300) errors.push(['TOO_LONG', 'this is too long (max: 300)', 'title']);
  const text = input.text ?? '';
  const url = input.url ?? '';
  if (kind === 'self') {
    if ([...text].length > 40_000) errors.push(['TOO_LONG', 'this is too long (max: 40000)', 'text']);
    if (sub?.submissionType === 'link') errors.push(['NO_SELFS', "this subreddit doesn't allow text posts", 'sr']);
  }
  if (kind === 'link') {
    if (!url) errors.push(['NO_URL', 'a url is required', 'url']);
    else if (!isHttpUrl(url)) errors.push(['BAD_URL', 'you should check that url', 'url']);
    else if (sub && !truthy(input.resubmit) && [...state.reddit.things.values()].some((t) => t.kind === 't3' && !t.deleted && t.url === url && t.subreddit === sub.name)) {
      errors.push(['ALREADY_SUB', 'that link has already been submitted', 'url']);
    }
    if (sub?.submissionType === 'self') errors.push(['NO_LINKS', 'that subreddit only allows text posts', 'sr']);
  }
  const flair = input.flair_id ? sub?.flairs.find((f) => f.id === input.flair_id) : undefined;
  if (sub && input.flair_id && !flair) errors.push(['INVALID_OPTION', 'that option is not valid', 'flair_id']);
  if (sub?.flairRequired && !input.flair_id) errors.push(['SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair']);
  if (errors.length || !sub) return envelope(input, errors);

  const id = state.ids.base36('reddit-thing', 1_500_000_000);
  const thing: RedditThing = {
    kind: 't3',
    id,
    authorId: user.id,
    author: user.name,
    subreddit: sub.name,
    title,
    text: kind === 'self' ? text : '',
    url: kind === 'link' ? url : null,
    isSelf: kind === 'self',
    flairId: flair?.id ?? null,
    flairText: flair ? (flair.textEditable && input.flair_text ? input.flair_text : flair.text) : null,
    nsfw: truthy(input.nsfw),
    spoiler: truthy(input.spoiler),
    sendReplies: input.sendreplies === undefined ? true : truthy(input.sendreplies),
    createdUtc: Math.floor(state.clock.now() / 1000),
    edited: false,
    deleted: false,
    parentId: null,
    linkId: null,
    permalink: `/r/${sub.name}/comments/${id}/${slug(title)}/`,
  };
  state.reddit.things.set(fullname(thing), thing);
  return envelope(input, [], { url: `https://www.reddit.com${thing.permalink}`, drafts_count: 0, id, name: fullname(thing) });
}
