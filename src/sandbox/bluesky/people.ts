// Bluesky's people: accounts (`state.people.blueskyAccounts`, by DID), each hosted on the sandbox's
// PDS (bsky.social) with its handle, email, main password (and email 2FA) and app passwords. The
// default seed adds `sandbox.bsky.social` (app password `sand-box0-app0-pass`) and two people who
// reply, mention and like: `friend.bsky.social` and `reader.bsky.social`. More come from
// `POST /_sandbox/seed` with `bluesky` and `state.addBlueskyAccount()`.
import type { SandboxState } from '../core/state.ts';
import { plcDid } from './codec.ts';

export interface AppPassword {
  name: string;
  password: string;
  /** Revoked (control API): its sessions end, and it signs in no more. */
  revoked: boolean;
}

export interface BlueskyAccount {
  did: string;
  handle: string;
  displayName: string;
  description: string;
  avatar: string;
  email: string;
  emailConfirmed: boolean;
  /** The account's own password; with email 2FA it answers AuthFactorTokenRequired at sign-in. */
  password: string;
  emailAuthFactor: boolean;
  appPasswords: AppPassword[];
  /** Taken down by the moderators: sign-in and every call answer AccountTakedown. */
  takenDown: boolean;
  followersCount: number;
  followsCount: number;
  createdAt: number;
  /** Notifications up to here are read (app.bsky.notification.updateSeen). */
  seenAt: number;
}

export interface BlueskyAccountInput {
  handle?: string;
  displayName?: string;
  email?: string;
  emailConfirmed?: boolean;
  password?: string;
  emailAuthFactor?: boolean;
  appPassword?: string;
  followersCount?: number;
  followsCount?: number;
}

declare module '../core/people.ts' {
  interface People {
    readonly blueskyAccounts: Map<string, BlueskyAccount>;
  }
}

declare module '../core/state.ts' {
  interface SandboxState {
    addBlueskyAccount(input?: BlueskyAccountInput): BlueskyAccount;
  }
}

export const freshBlueskyPeople = () => ({ blueskyAccounts: new Map<string, BlueskyAccount>() });

export function addBlueskyAccount(state: SandboxState, input: BlueskyAccountInput = {}): BlueskyAccount {
  const n = state.people.blueskyAccounts.size + 1;
  const handle = (input.handle ?? `sandbox${n}.bsky.social`).toLowerCase();
  if (findAccount(state, handle)) throw new Error(`the handle ${handle} is taken`);
  const name = handle.split('.')[0] ?? handle;
  const account: BlueskyAccount = {
    did: plcDid(state.options.seed ?? 'sandbox', handle),
    handle,
    displayName: input.displayName ?? `Sandbox ${name}`,
    description: '',
    avatar: `https://cdn.bsky.app/img/avatar/plain/${handle}/sandbox@jpeg`,
    email: (input.email ?? `${name}@sandbox.invalid`).toLowerCase(),
    emailConfirmed: input.emailConfirmed ?? true,
    password: input.password ?? `${name}-main-password`,
    emailAuthFactor: input.emailAuthFactor ?? false,
    appPasswords: [{ name: 'sandbox', password: input.appPassword ?? `${name.slice(0, 4).padEnd(4, '0')}-app0-pass-0000`, revoked: false }],
    takenDown: false,
    followersCount: input.followersCount ?? 0,
    followsCount: input.followsCount ?? 0,
    createdAt: state.clock.now(),
    seenAt: 0,
  };
  state.people.blueskyAccounts.set(account.did, account);
  return account;
}

/** By DID, handle (any case) or email. */
export function findAccount(state: SandboxState, identifier: string): BlueskyAccount | undefined {
  const key = identifier.trim().toLowerCase().replace(/^@/, '');
  const byDid = state.people.blueskyAccounts.get(identifier.trim());
  if (byDid) return byDid;
  for (const account of state.people.blueskyAccounts.values()) {
    if (account.handle === key || account.email === key) return account;
  }
  return undefined;
}
