// reddit's people: its users and subreddits (`state.people.redditUsers`, `.subreddits`, and the
// look-up `state.people.subreddit(name)`), added by the default seed, the control API
// (`POST /_sandbox/seed` with `reddit`) and `state.addRedditUser()` / `state.addSubreddit()`.
import type { SandboxState } from '../core/state.ts';

export interface RedditUser {
  id: string;
  name: string;
  createdUtc: number;
  linkKarma: number;
  commentKarma: number;
  iconImg: string;
}

export interface RedditFlair {
  id: string;
  text: string;
  textEditable: boolean;
  modOnly: boolean;
}

export interface Subreddit {
  id: string;
  name: string;
  title: string;
  /** `any`, or only self posts, or only links (SUBMIT NO_SELFS / NO_LINKS). */
  submissionType: 'any' | 'self' | 'link';
  flairs: RedditFlair[];
  flairRequired: boolean;
}

export interface SubredditInput {
  name: string;
  title?: string | undefined;
  submissionType?: Subreddit['submissionType'] | undefined;
  flairs?: Array<{ text: string; textEditable?: boolean | undefined; modOnly?: boolean | undefined; id?: string | undefined }> | undefined;
  flairRequired?: boolean | undefined;
}

declare module '../core/people.ts' {
  interface People {
    readonly redditUsers: Map<string, RedditUser>;
    /** Keyed by lower-cased name: reddit names are case-insensitive. */
    readonly subreddits: Map<string, Subreddit>;
    /** A subreddit by name, with or without `r/`, in any case. */
    subreddit(name: string): Subreddit | undefined;
  }
}

declare module '../core/state.ts' {
  interface SandboxState {
    addRedditUser(input?: Partial<Omit<RedditUser, 'id'>>): RedditUser;
    addSubreddit(input: SubredditInput): Subreddit;
  }
}

/** The maps (kept in the state file) and the look-up; the maps are refilled in place at a restore. */
export function freshRedditPeople() {
  const subreddits = new Map<string, Subreddit>();
  return {
    redditUsers: new Map<string, RedditUser>(),
    subreddits,
    subreddit: (name: string): Subreddit | undefined => subreddits.get(name.replace(/^\/?r\//i, '').toLowerCase()),
  };
}

export function addRedditUser(state: SandboxState, input: Partial<Omit<RedditUser, 'id'>> = {}): RedditUser {
  const users = state.people.redditUsers;
  const n = users.size + 1;
  const user: RedditUser = {
    id: state.ids.base36('reddit-user', 1_000_000_000),
    name: input.name ?? `sandbox_user${n}`,
    createdUtc: input.createdUtc ?? 1_600_000_000,
    linkKarma: input.linkKarma ?? 100,
    commentKarma: input.commentKarma ?? 250,
    iconImg: input.iconImg ?? 'https://sandbox.invalid/avatars/reddit.png',
  };
  users.set(user.id, user);
  return user;
}

export function addSubreddit(state: SandboxState, input: SubredditInput): Subreddit {
  const flairs: RedditFlair[] = (input.flairs ?? []).map((f) => ({
    id: f.id ?? flairId(state),
    text: f.text,
    textEditable: f.textEditable ?? false,
    modOnly: f.modOnly ?? false,
  }));
  const sub: Subreddit = {
    id: state.ids.base36('subreddit', 2_000_000),
    name: input.name,
    title: input.title ?? input.name,
    submissionType: input.submissionType ?? 'any',
    flairs,
    flairRequired: input.flairRequired ?? false,
  };
  state.people.subreddits.set(sub.name.toLowerCase(), sub);
  return sub;
}

/** reddit flair template ids are UUIDs. */
function flairId(state: SandboxState): string {
  const hex = state.ids.opaque('flair', 32, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
