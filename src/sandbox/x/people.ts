// X's people: its users (`state.people.xUsers`), added by the default seed (`sandbox_x`), the
// control API (`POST /_sandbox/seed` with `x`) and `state.addXUser()`. Ids are 19-digit strings.
import type { SandboxState } from '../core/state.ts';

export interface XUser {
  id: string;
  username: string;
  name: string;
  profileImageUrl: string;
  verified: boolean;
  followersCount: number;
  followingCount: number;
  listedCount: number;
}

declare module '../core/people.ts' {
  interface People {
    readonly xUsers: Map<string, XUser>;
  }
}

declare module '../core/state.ts' {
  interface SandboxState {
    addXUser(input?: Partial<Omit<XUser, 'id'>>): XUser;
  }
}

export const freshXPeople = () => ({ xUsers: new Map<string, XUser>() });

export function addXUser(state: SandboxState, input: Partial<Omit<XUser, 'id'>> = {}): XUser {
  const n = state.people.xUsers.size + 1;
  const user: XUser = {
    id: state.ids.numeric('x-user', '1', 19),
    username: input.username ?? `sandbox_x${n}`,
    name: input.name ?? `Sandbox X ${n}`,
    profileImageUrl: input.profileImageUrl ?? 'https://sandbox.invalid/avatars/x.png',
    verified: input.verified ?? false,
    followersCount: input.followersCount ?? 420,
    followingCount: input.followingCount ?? 42,
    listedCount: input.listedCount ?? 3,
  };
  state.people.xUsers.set(user.id, user);
  return user;
}
