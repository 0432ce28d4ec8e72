// Pinterest's people: users (`state.people.pinterestUsers`) with their boards and each board's
// sections, added by the default seed (`sandbox_pins`, boards "Sandbox Recipes" with sections
// Breads and Cakes, and "Sandbox Reading"), `POST /_sandbox/seed` with `pinterest`, and
// `state.addPinterestUser()`. Ids are digit strings, as Pinterest's.
import type { SandboxState } from '../core/state.ts';

export type BoardPrivacy = 'PUBLIC' | 'PROTECTED' | 'SECRET';

export interface PinterestSection {
  id: string;
  name: string;
}

export interface PinterestBoard {
  id: string;
  ownerId: string;
  name: string;
  description: string;
  privacy: BoardPrivacy;
  sections: PinterestSection[];
  createdAt: number;
}

export interface PinterestUser {
  id: string;
  username: string;
  accountType: 'PINNER' | 'BUSINESS';
  businessName: string | null;
  profileImage: string;
  websiteUrl: string | null;
  followerCount: number;
  followingCount: number;
  monthlyViews: number;
}

export interface PinterestUserInput {
  username?: string;
  accountType?: 'PINNER' | 'BUSINESS';
  followerCount?: number;
  boards?: Array<{ name: string; privacy?: BoardPrivacy; sections?: string[] }>;
}

declare module '../core/people.ts' {
  interface People {
    readonly pinterestUsers: Map<string, PinterestUser>;
    readonly pinterestBoards: Map<string, PinterestBoard>;
  }
}

declare module '../core/state.ts' {
  interface SandboxState {
    addPinterestUser(input?: PinterestUserInput): { user: PinterestUser; boards: PinterestBoard[] };
  }
}

export const freshPinterestPeople = () => ({ pinterestUsers: new Map<string, PinterestUser>(), pinterestBoards: new Map<string, PinterestBoard>() });

export function addPinterestUser(state: SandboxState, input: PinterestUserInput = {}): { user: PinterestUser; boards: PinterestBoard[] } {
  const n = state.people.pinterestUsers.size + 1;
  const user: PinterestUser = {
    id: state.ids.numeric('pinterest-user', '7', 18),
    username: input.username ?? `sandbox_pins${n}`,
    accountType: input.accountType ?? 'BUSINESS',
    businessName: null,
    profileImage: 'https://sandbox.invalid/avatars/pinterest.png',
    websiteUrl: null,
    followerCount: input.followerCount ?? 310,
    followingCount: 27,
    monthlyViews: 1200,
  };
  state.people.pinterestUsers.set(user.id, user);
  const boards = (input.boards ?? [{ name: `Board ${n}` }]).map((b) => {
    const board: PinterestBoard = {
      id: state.ids.numeric('pinterest-board', '8', 18),
      ownerId: user.id,
      name: b.name,
      description: '',
      privacy: b.privacy ?? 'PUBLIC',
      sections: (b.sections ?? []).map((name) => ({ id: state.ids.numeric('pinterest-section', '5', 19), name })),
      createdAt: state.clock.now(),
    };
    state.people.pinterestBoards.set(board.id, board);
    return board;
  });
  return { user, boards };
}
