// Meta's people: Facebook users with their Pages (and the Instagram accounts linked to them) and
// Instagram professional accounts (`state.people.facebookUsers`, `.pages`, `.instagramAccounts`),
// added by the default seed, the control API (`POST /_sandbox/seed` with `facebook` or
// `instagram`) and `state.addFacebookUser()` / `state.addInstagramAccount()`. The facebook module
// brings the users and Pages, the instagram module the accounts.
import type { SandboxState } from '../core/state.ts';

export interface FacebookUser {
  id: string;
  name: string;
  email: string;
  pageIds: string[];
}

export interface FacebookPage {
  id: string;
  name: string;
  category: string;
  /** The tasks the sandbox user holds on the Page (platforms.md §1.5). */
  tasks: string[];
  instagramAccountId: string | null;
}

export interface InstagramAccount {
  id: string;
  username: string;
  name: string;
  accountType: 'BUSINESS' | 'MEDIA_CREATOR';
  pageId: string | null;
  biography: string;
  followersCount: number;
  followsCount: number;
  mediaCount: number;
  profilePictureUrl: string;
}

export interface PageInput {
  name?: string | undefined;
  category?: string | undefined;
  tasks?: string[] | undefined;
  /** An Instagram professional account linked to the Page (Instagram via Facebook Login). */
  instagram?: Partial<Omit<InstagramAccount, 'id' | 'pageId'>> | undefined;
}

export interface FacebookUserInput {
  name?: string | undefined;
  email?: string | undefined;
  pages?: PageInput[] | undefined;
}

declare module '../core/people.ts' {
  interface People {
    readonly facebookUsers: Map<string, FacebookUser>;
    readonly pages: Map<string, FacebookPage>;
    readonly instagramAccounts: Map<string, InstagramAccount>;
  }
}

declare module '../core/state.ts' {
  interface SandboxState {
    addFacebookUser(input?: FacebookUserInput): { user: FacebookUser; pages: FacebookPage[]; instagram: InstagramAccount[] };
    addInstagramAccount(input?: Partial<Omit<InstagramAccount, 'id'>>): InstagramAccount;
  }
}

export const freshFacebookPeople = () => ({ facebookUsers: new Map<string, FacebookUser>(), pages: new Map<string, FacebookPage>() });
export const freshInstagramPeople = () => ({ instagramAccounts: new Map<string, InstagramAccount>() });

export function addFacebookUser(state: SandboxState, input: FacebookUserInput = {}): {
  user: FacebookUser;
  pages: FacebookPage[];
  instagram: InstagramAccount[];
} {
  const n = state.people.facebookUsers.size + 1;
  const user: FacebookUser = {
    id: state.ids.numeric('fb-user', '10', 17),
    name: input.name ?? `Sandbox User ${n}`,
    email: input.email ?? `sandbox.user${n}@example.com`,
    pageIds: [],
  };
  state.people.facebookUsers.set(user.id, user);
  const pages: FacebookPage[] = [];
  const instagram: InstagramAccount[] = [];
  for (const pageInput of input.pages ?? []) {
    const page: FacebookPage = {
      id: state.ids.numeric('fb-page', '1', 15),
      name: pageInput.name ?? `Sandbox Page ${state.people.pages.size + 1}`,
      category: pageInput.category ?? 'Local Business',
      tasks: pageInput.tasks ?? ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      instagramAccountId: null,
    };
    if (pageInput.instagram) {
      const account = addInstagramAccount(state, { ...pageInput.instagram, pageId: page.id });
      page.instagramAccountId = account.id;
      instagram.push(account);
    }
    state.people.pages.set(page.id, page);
    user.pageIds.push(page.id);
    pages.push(page);
  }
  return { user, pages, instagram };
}

export function addInstagramAccount(state: SandboxState, input: Partial<Omit<InstagramAccount, 'id'>> = {}): InstagramAccount {
  const n = state.people.instagramAccounts.size + 1;
  const account: InstagramAccount = {
    id: state.ids.numeric('ig-user', '1784', 17),
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
  state.people.instagramAccounts.set(account.id, account);
  return account;
}
