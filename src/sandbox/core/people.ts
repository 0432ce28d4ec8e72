// The sandbox's people and their assets: Facebook users with Pages (and the Instagram accounts
// linked to them) and Instagram professional accounts, and the people of the modules that bring
// their own (`people.fresh`, module.ts: Threads users, TikTok creators, reddit users and subreddits).
// Seeded by default and through the control API.
import type { IdGenerator } from './ids.ts';
import type { FacebookPage, FacebookUser, InstagramAccount } from './model.ts';
import type { StateModule } from './module.ts';

export interface PageInput {
  name?: string | undefined;
  category?: string | undefined;
  tasks?: string[] | undefined;
  /** An Instagram professional account linked to the Page (Instagram via Facebook Login). */
  instagram?: Partial<Omit<InstagramAccount, 'id' | 'pageId'>> | undefined;
}

/** The fields the modules add, declared from their folders (`declare module '../core/people.ts'`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the fields the constructor defines
export interface People {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class People {
  readonly facebookUsers = new Map<string, FacebookUser>();
  readonly pages = new Map<string, FacebookPage>();
  readonly instagramAccounts = new Map<string, InstagramAccount>();
  #ids: IdGenerator;

  constructor(ids: IdGenerator, modules: readonly StateModule<string, object>[]) {
    this.#ids = ids;
    // Maps are own enumerable fields, as class fields would be, so the state file keeps them;
    // functions are not (the file keeps no function).
    for (const module of modules) {
      for (const [key, value] of Object.entries(module.people?.fresh?.() ?? {})) {
        if (key in this) throw new Error(`sandbox: the people field ${key} is taken`);
        Object.defineProperty(this, key, { value: value as unknown, writable: true, enumerable: typeof value !== 'function', configurable: true });
      }
    }
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
}
