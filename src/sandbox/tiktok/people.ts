// TikTok's people: the creators (`state.people.tiktokCreators`), added by the default seed, the
// control API (`POST /_sandbox/seed` with `tiktok`) and `state.addTikTokCreator()`.
import type { SandboxState } from '../core/state.ts';

export type TikTokPrivacyLevel = 'PUBLIC_TO_EVERYONE' | 'MUTUAL_FOLLOW_FRIENDS' | 'FOLLOWER_OF_CREATOR' | 'SELF_ONLY';

export interface TikTokCreator {
  id: string;
  openId: string;
  unionId: string;
  username: string;
  displayName: string;
  avatarUrl: string;
  bio: string;
  isVerified: boolean;
  followerCount: number;
  followingCount: number;
  likesCount: number;
  videoCount: number;
  privacyLevelOptions: TikTokPrivacyLevel[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
  /** A private account; unaudited clients may post only SELF_ONLY, to a private account (§12). */
  privateAccount: boolean;
  /** When set, creator_info and init answer this error (§5.2). */
  postingBlocked: null | 'spam_risk_too_many_posts' | 'spam_risk_user_banned_from_posting' | 'reached_active_user_cap';
}

export type TikTokCreatorInput = Partial<Omit<TikTokCreator, 'id' | 'openId' | 'unionId'>>;

declare module '../core/people.ts' {
  interface People {
    readonly tiktokCreators: Map<string, TikTokCreator>;
  }
}

declare module '../core/state.ts' {
  interface SandboxState {
    addTikTokCreator(input?: TikTokCreatorInput): TikTokCreator;
  }
}

export const freshTikTokPeople = () => ({ tiktokCreators: new Map<string, TikTokCreator>() });

export function addTikTokCreator(state: SandboxState, input: TikTokCreatorInput = {}): TikTokCreator {
  const creators = state.people.tiktokCreators;
  const n = creators.size + 1;
  const creator: TikTokCreator = {
    id: String(n),
    openId: `-000${state.ids.opaque('tiktok-open-id', 28, 'base62')}`,
    unionId: state.ids.opaque('tiktok-union-id', 32, 'hex'),
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
  creators.set(creator.id, creator);
  return creator;
}
