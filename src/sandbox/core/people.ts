// The sandbox's people and their assets: Facebook users with Pages (and the Instagram accounts
// linked to them), Instagram professional accounts, Threads users, TikTok creators, reddit
// users and subreddits. Seeded by default and through the control API.
import type { IdGenerator } from './ids.ts';
import type {
  FacebookPage,
  FacebookUser,
  InstagramAccount,
  RedditFlair,
  RedditUser,
  Subreddit,
  ThreadsUser,
  TikTokCreator,
} from './model.ts';

export interface PageInput {
  name?: string | undefined;
  category?: string | undefined;
  tasks?: string[] | undefined;
  /** An Instagram professional account linked to the Page (Instagram via Facebook Login). */
  instagram?: Partial<Omit<InstagramAccount, 'id' | 'pageId'>> | undefined;
}

export interface SubredditInput {
  name: string;
  title?: string | undefined;
  submissionType?: Subreddit['submissionType'] | undefined;
  flairs?: Array<{ text: string; textEditable?: boolean | undefined; modOnly?: boolean | undefined; id?: string | undefined }> | undefined;
  flairRequired?: boolean | undefined;
}

export class People {
  readonly facebookUsers = new Map<string, FacebookUser>();
  readonly pages = new Map<string, FacebookPage>();
  readonly instagramAccounts = new Map<string, InstagramAccount>();
  readonly threadsUsers = new Map<string, ThreadsUser>();
  readonly tiktokCreators = new Map<string, TikTokCreator>();
  readonly redditUsers = new Map<string, RedditUser>();
  /** Keyed by lower-cased name: reddit names are case-insensitive. */
  readonly subreddits = new Map<string, Subreddit>();
  #ids: IdGenerator;

  constructor(ids: IdGenerator) {
    this.#ids = ids;
  }

  addFacebookUser(input: { name?: string | undefined; email?: string | undefined; pages?: PageInput[] | undefined } = {}): {
    user: FacebookUser;
    pages: FacebookPage[];
    instagram: InstagramAccount[];
  } {
    const n = this.facebookUsers.size + 1;
    const user: FacebookUser = {
      id: this.#ids.numeric('fb-user', '10', 17),
      name: input.name ?? `Sandbox User ${n}`,
      email: input.email ?? `sandbox.user${n}@example.com`,
      pageIds: [],
    };
    this.facebookUsers.set(user.id, user);
    const pages: FacebookPage[] = [];
    const instagram: InstagramAccount[] = [];
    for (const pageInput of input.pages ?? []) {
      const page: FacebookPage = {
        id: this.#ids.numeric('fb-page', '1', 15),
        name: pageInput.name ?? `Sandbox Page ${this.pages.size + 1}`,
        category: pageInput.category ?? 'Local Business',
        tasks: pageInput.tasks ?? ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
        instagramAccountId: null,
      };
      if (pageInput.instagram) {
        const account = this.addInstagramAccount({ ...pageInput.instagram, pageId: page.id });
        page.instagramAccountId = account.id;
        instagram.push(account);
      }
      this.pages.set(page.id, page);
      user.pageIds.push(page.id);
      pages.push(page);
    }
    return { user, pages, instagram };
  }

  addInstagramAccount(input: Partial<Omit<InstagramAccount, 'id'>> = {}): InstagramAccount {
    const n = this.instagramAccounts.size + 1;
    const account: InstagramAccount = {
      id: this.#ids.numeric('ig-user', '1784', 17),
      username: input.username ?? `sandbox.instagram${n}`,
      name: input.name ?? `Sandbox Instagram ${n}`,
      accountType: input.accountType ?? 'BUSINESS',
      pageId: input.pageId ?? null,
      biography: input.biography ?? 'A sandbox Instagram account.',
      followersCount: input.followersCount ?? 1200,
      followsCount: input.followsCount ?? 80,
      mediaCount: input.mediaCount ?? 0,
      profilePictureUrl: input.profilePictureUrl ?? 'https://sandbox.invalid/avatars/instagram.jpg',
    };
    this.instagramAccounts.set(account.id, account);
    return account;
  }

  addThreadsUser(input: Partial<Omit<ThreadsUser, 'id'>> = {}): ThreadsUser {
    const n = this.threadsUsers.size + 1;
    const user: ThreadsUser = {
      id: this.#ids.numeric('threads-user', '2', 17),
      username: input.username ?? `sandbox.threads${n}`,
      name: input.name ?? `Sandbox Threads ${n}`,
      biography: input.biography ?? 'A sandbox Threads profile.',
      profilePictureUrl: input.profilePictureUrl ?? 'https://sandbox.invalid/avatars/threads.jpg',
      followersCount: input.followersCount ?? 150,
    };
    this.threadsUsers.set(user.id, user);
    return user;
  }

  addTikTokCreator(input: Partial<Omit<TikTokCreator, 'id' | 'openId' | 'unionId'>> = {}): TikTokCreator {
    const n = this.tiktokCreators.size + 1;
    const creator: TikTokCreator = {
      id: String(n),
      openId: `-000${this.#ids.opaque('tiktok-open-id', 28, 'base62')}`,
      unionId: this.#ids.opaque('tiktok-union-id', 32, 'hex'),
      username: input.username ?? `sandbox.tiktok${n}`,
      displayName: input.displayName ?? `Sandbox TikTok ${n}`,
      avatarUrl: input.avatarUrl ?? 'https://sandbox.invalid/avatars/tiktok.jpg',
      bio: input.bio ?? 'A sandbox TikTok creator.',
      isVerified: input.isVerified ?? false,
      followerCount: input.followerCount ?? 300,
      followingCount: input.followingCount ?? 40,
      likesCount: input.likesCount ?? 5000,
      videoCount: input.videoCount ?? 0,
      privacyLevelOptions: input.privacyLevelOptions ?? ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      commentDisabled: input.commentDisabled ?? false,
      duetDisabled: input.duetDisabled ?? false,
      stitchDisabled: input.stitchDisabled ?? true,
      maxVideoPostDurationSec: input.maxVideoPostDurationSec ?? 600,
      privateAccount: input.privateAccount ?? true,
      postingBlocked: input.postingBlocked ?? null,
    };
    this.tiktokCreators.set(creator.id, creator);
    return creator;
  }

  addRedditUser(input: Partial<Omit<RedditUser, 'id'>> = {}): RedditUser {
    const n = this.redditUsers.size + 1;
    const user: RedditUser = {
      id: this.#ids.base36('reddit-user', 1_000_000_000),
      name: input.name ?? `sandbox_user${n}`,
      createdUtc: input.createdUtc ?? 1_600_000_000,
      linkKarma: input.linkKarma ?? 100,
      commentKarma: input.commentKarma ?? 250,
      iconImg: input.iconImg ?? 'https://sandbox.invalid/avatars/reddit.png',
    };
    this.redditUsers.set(user.id, user);
    return user;
  }

  addSubreddit(input: SubredditInput): Subreddit {
    const flairs: RedditFlair[] = (input.flairs ?? []).map((f) => ({
      id: f.id ?? this.#flairId(),
      text: f.text,
      textEditable: f.textEditable ?? false,
      modOnly: f.modOnly ?? false,
    }));
    const sub: Subreddit = {
      id: this.#ids.base36('subreddit', 2_000_000),
      name: input.name,
      title: input.title ?? input.name,
      submissionType: input.submissionType ?? 'any',
      flairs,
      flairRequired: input.flairRequired ?? false,
    };
    this.subreddits.set(sub.name.toLowerCase(), sub);
    return sub;
  }

  subreddit(name: string): Subreddit | undefined {
    return this.subreddits.get(name.replace(/^\/?r\//i, '').toLowerCase());
  }

  /** reddit flair template ids are UUIDs. */
  #flairId(): string {
    const hex = this.#ids.opaque('flair', 32, 'hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
