// Threads' people: its users (`state.people.threadsUsers`), added by the default seed, the
// control API (`POST /_sandbox/seed` with `threads`) and `state.addThreadsUser()`.
import type { SandboxState } from '../core/state.ts';

export interface ThreadsUser {
  id: string;
  username: string;
  name: string;
  biography: string;
  profilePictureUrl: string;
  followersCount: number;
}

declare module '../core/people.ts' {
  interface People {
    readonly threadsUsers: Map<string, ThreadsUser>;
  }
}

declare module '../core/state.ts' {
  interface SandboxState {
    addThreadsUser(input?: Partial<Omit<ThreadsUser, 'id'>>): ThreadsUser;
  }
}

export const freshThreadsPeople = () => ({ threadsUsers: new Map<string, ThreadsUser>() });

export function addThreadsUser(state: SandboxState, input: Partial<Omit<ThreadsUser, 'id'>> = {}): ThreadsUser {
  const users = state.people.threadsUsers;
  const n = users.size + 1;
  const user: ThreadsUser = {
    id: state.ids.numeric('threads-user', '2', 17),
    username: input.username ?? `sandbox.threads${n}`,
    name: input.name ?? `Sandbox Threads ${n}`,
    biography: input.biography ?? 'A sandbox Threads profile.',
    profilePictureUrl: input.profilePictureUrl ?? 'https://sandbox.invalid/avatars/threads.jpg',
    followersCount: input.followersCount ?? 150,
  };
  users.set(user.id, user);
  return user;
}
