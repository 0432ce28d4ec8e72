// The tiktok module: its hosts, its store, and the private account `sandbox.tiktok`.
import { list } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { tiktokHosts } from './hosts.ts';
import { addTikTokCreator, freshTikTokPeople } from './people.ts';
import { TikTokStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly tiktok: TikTokStore;
  }
}

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly tiktok: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    tiktokMs: number;
  }
  interface TokenSettings {
    tiktokAccess: number;
    tiktokRefresh: number;
    /** Authorization codes: 10 minutes. */
    codeTikTok: number;
  }
  interface LimitSettings {
    tiktokInitPerMinute: number;
    tiktokStatusPerMinute: number;
  }
  interface ModuleSettings {
    tiktok: {
      /** URL prefixes verified for PULL_FROM_URL; null accepts every URL (§5.3). */
      verifiedUrlPrefixes: string[] | null;
    };
  }
}

export const tiktokModule: SandboxModule<'tiktok', TikTokStore> = {
  name: 'tiktok',
  oauth: true,
  settings: () => ({
    processing: { tiktokMs: 3000 },
    tokens: { tiktokAccess: 86_400, tiktokRefresh: 31_536_000, codeTikTok: 600 },
    limits: { tiktokInitPerMinute: 6, tiktokStatusPerMinute: 30 },
    tiktok: { verifiedUrlPrefixes: null },
  }),
  people: {
    fresh: freshTikTokPeople,
    list: (state) => [...state.people.tiktokCreators.values()],
    seed: (state, body) => list(body).map((c) => state.addTikTokCreator(c)),
  },
  methods: { addTikTokCreator },
  store: () => new TikTokStore(),
  seed: (state) => {
    state.addTikTokCreator({ username: 'sandbox.tiktok', displayName: 'Sandbox TikTok' });
  },
  hosts: tiktokHosts,
  // A PULL_FROM_URL publish whose download the restart cut off fails as a failed pull does.
  restored: (state) => {
    const now = state.clock.now();
    for (const publish of state.tiktok.publishes.values()) {
      if (publish.source !== 'PULL_FROM_URL' || publish.transferredAt !== null) continue;
      publish.failReason ??= publish.media === 'VIDEO' ? 'video_pull_failed' : 'photo_pull_failed';
      publish.transferredAt = now;
    }
  },
};
