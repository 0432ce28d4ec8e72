// Google's people for YouTube: Google users (`state.people.googleUsers`) and their channels
// (`state.people.youtubeChannels`). Google's account chooser lists a person's own account and
// each Brand Account they manage as identities of their own; a token belongs to the identity
// picked, and `channels.list?mine=true` lists that identity's channels (normally one). Here an
// identity's id is its first channel's id, so the consent page's subjects and the control API's
// `subjectId` name channels. Added by the default seed ("Sandbox User" with "Sandbox Bakery TV"
// and the Brand Account "Sandbox Books TV"), `POST /_sandbox/seed` with `youtube`, and
// `state.addGoogleUser()`.
import type { SandboxState } from '../core/state.ts';

export interface GoogleUser {
  id: string;
  name: string;
  email: string;
  /** Identities with no channel: the person signs in as one, and `mine=true` lists nothing. */
  bareIdentities: string[];
}

export interface YouTubeChannel {
  id: string;
  /** The Google user who owns (or manages, for a Brand Account) the channel. */
  ownerId: string;
  /** The identity picked in the account chooser whose token lists this channel. */
  identityId: string;
  brandAccount: boolean;
  title: string;
  description: string;
  customUrl: string;
  thumbnailUrl: string;
  subscriberCount: number;
  /** Verified channels (phone verification) may set custom thumbnails. */
  verified: boolean;
}

declare module '../core/people.ts' {
  interface People {
    readonly googleUsers: Map<string, GoogleUser>;
    readonly youtubeChannels: Map<string, YouTubeChannel>;
  }
}

export interface NewGoogleUser {
  name?: string;
  /** The user's channels; the first is their own, the others Brand Accounts. */
  channels?: Array<{ title: string; verified?: boolean; subscriberCount?: number }>;
  /** All the channels under one identity (mine=true lists them all): the rare case of a pending choice. */
  oneIdentity?: boolean;
}

declare module '../core/state.ts' {
  interface SandboxState {
    addGoogleUser(input?: NewGoogleUser): { user: GoogleUser; channels: YouTubeChannel[]; identities: string[] };
  }
}

export const freshYouTubePeople = () => ({ googleUsers: new Map<string, GoogleUser>(), youtubeChannels: new Map<string, YouTubeChannel>() });

export function addGoogleUser(state: SandboxState, input: NewGoogleUser = {}): { user: GoogleUser; channels: YouTubeChannel[]; identities: string[] } {
  const n = state.people.googleUsers.size + 1;
  const name = input.name ?? `Sandbox Google User ${n}`;
  const user: GoogleUser = { id: state.ids.numeric('google-user', '1', 21), name, email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@sandbox.invalid`, bareIdentities: [] };
  state.people.googleUsers.set(user.id, user);
  const channels: YouTubeChannel[] = [];
  for (const [i, c] of (input.channels ?? []).entries()) {
    const id = `UC${state.ids.opaque('youtube-channel', 22)}`;
    const channel: YouTubeChannel = {
      id,
      ownerId: user.id,
      identityId: input.oneIdentity && channels[0] ? channels[0].id : id,
      brandAccount: i > 0,
      title: c.title,
      description: '',
      customUrl: `@${c.title.toLowerCase().replace(/[^a-z0-9]+/g, '')}`,
      thumbnailUrl: 'https://sandbox.invalid/avatars/youtube.jpg',
      subscriberCount: c.subscriberCount ?? 1200,
      verified: c.verified ?? true,
    };
    state.people.youtubeChannels.set(id, channel);
    channels.push(channel);
  }
  if (!channels.length) user.bareIdentities.push(`G${user.id}`);
  return { user, channels, identities: identitiesOf(state, user) };
}

/** The identities of a user, in the chooser's order: each channel's identity, or the bare account. */
export function identitiesOf(state: SandboxState, user: GoogleUser): string[] {
  const ids = [...state.people.youtubeChannels.values()].filter((c) => c.ownerId === user.id).map((c) => c.identityId);
  return [...new Set([...ids, ...user.bareIdentities])];
}

/** The channels a token of this identity lists with mine=true. */
export const channelsOfIdentity = (state: SandboxState, identityId: string): YouTubeChannel[] => [...state.people.youtubeChannels.values()].filter((c) => c.identityId === identityId);

/** The Google user behind an identity. */
export function userOfIdentity(state: SandboxState, identityId: string): GoogleUser | undefined {
  const channel = [...state.people.youtubeChannels.values()].find((c) => c.identityId === identityId);
  if (channel) return state.people.googleUsers.get(channel.ownerId);
  return [...state.people.googleUsers.values()].find((u) => u.bareIdentities.includes(identityId));
}
