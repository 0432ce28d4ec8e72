// The instagram module: Instagram Login (www.instagram.com, api.instagram.com) and
// graph.instagram.com. Its objects live in the Meta store (meta/module.ts); its default account
// is the one linked to the default Page (facebook/module.ts).
import { list } from '../core/control.ts';
import { addInstagramAccount, freshInstagramPeople } from '../meta/people.ts';
import type { SandboxModule } from '../module.ts';
import { instagramGraphHost, instagramWebHosts } from './hosts.ts';

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly instagram: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    /** Instagram containers (§2.3): images are fetched at creation, then processed. */
    instagramImageMs: number;
    instagramVideoMs: number;
  }
  interface TokenSettings {
    instagramShort: number;
    instagramLong: number;
    /** Authorization codes: 1 hour. */
    codeInstagram: number;
  }
  interface LimitSettings {
    /** Instagram API posts per rolling 24 h (§2.3: docs say 100, 50 or 25; read config.quota_total). */
    instagramPosts: number;
  }
  interface ModuleSettings {
    instagram: {
      /** The code-exchange answer: flat `{access_token,user_id,permissions}` or wrapped in `data` (§2.2). */
      tokenResponseShape: 'flat' | 'data';
    };
  }
}

export const instagramModule: SandboxModule<'instagram'> = {
  name: 'instagram',
  oauth: true,
  settings: () => ({
    processing: { instagramImageMs: 1000, instagramVideoMs: 5000 },
    tokens: { instagramShort: 3600, instagramLong: 5_184_000, codeInstagram: 3600 },
    limits: { instagramPosts: 100 },
    instagram: { tokenResponseShape: 'flat' },
  }),
  people: {
    fresh: freshInstagramPeople,
    list: (state) => [...state.people.instagramAccounts.values()],
    seed: (state, body) => list(body).map((a) => state.addInstagramAccount(a)),
  },
  methods: { addInstagramAccount },
  hosts: () => [...instagramWebHosts(), instagramGraphHost()],
  // A container whose media download the restart cut off fails as a download that timed out
  // (platforms.md §2.4).
  restored: (state) => {
    for (const container of state.meta.igContainers.values()) {
      if (container.download !== 'pending') continue;
      container.download = 'failed';
      container.errorSubcode = 2207003;
    }
  },
};
