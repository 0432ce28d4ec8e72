// The facebook module: the Login dialog, graph.facebook.com (with what other modules add to it)
// and rupload.facebook.com, and the default Facebook user with two Pages, one linked to an
// Instagram account. Its objects live in the Meta store (meta/module.ts).
import { list } from '../core/control.ts';
import { addFacebookUser, freshFacebookPeople } from '../meta/people.ts';
import type { SandboxModule } from '../module.ts';
import { facebookGraphHost, facebookWebHost } from './hosts.ts';
import { ruploadHost } from './rupload.ts';

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly facebook: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    /** Facebook videos, Reels and video stories after their upload (§3.1). */
    facebookVideoMs: number;
  }
  interface TokenSettings {
    facebookShort: number;
    facebookLong: number;
    /** Authorization codes: 10 minutes. */
    codeFacebook: number;
  }
  interface LimitSettings {
    /** Reels published through the API per Page per rolling 24 h (§3.1). */
    facebookReels: number;
  }
  interface ModuleSettings {
    facebook: {
      /** Permissions a Facebook Login for Business `config_id` stands for. */
      configScopes: string[];
    };
  }
}

const INTERRUPTED = 'The download was interrupted by a sandbox restart';

export const facebookModule: SandboxModule<'facebook'> = {
  name: 'facebook',
  oauth: true,
  settings: () => ({
    processing: { facebookVideoMs: 5000 },
    tokens: { facebookShort: 5400, facebookLong: 5_184_000, codeFacebook: 600 },
    limits: { facebookReels: 30 },
    facebook: {
      configScopes: [
        'pages_show_list',
        'pages_manage_posts',
        'pages_read_engagement',
        'pages_manage_engagement',
        'business_management',
        'whatsapp_business_management',
        'whatsapp_business_messaging',
      ],
    },
  }),
  seed: (state) => {
    state.addFacebookUser({
      name: 'Sandbox User',
      email: 'sandbox.user@example.com',
      pages: [
        { name: 'Sandbox Bakery', category: 'Bakery', instagram: { username: 'sandbox.bakery', name: 'Sandbox Bakery' } },
        { name: 'Sandbox Books', category: 'Book Store' },
      ],
    });
  },
  people: {
    fresh: freshFacebookPeople,
    list: (state) => [...state.people.facebookUsers.values()].map((u) => ({ ...u, pages: u.pageIds.map((id) => state.people.pages.get(id)) })),
    seed: (state, body) =>
      list(body).map((u) =>
        state.addFacebookUser({
          name: typeof u.name === 'string' ? u.name : undefined,
          email: typeof u.email === 'string' ? u.email : undefined,
          pages: list(u.pages),
        }),
      ),
  },
  methods: { addFacebookUser },
  hosts: ({ graph }) => [facebookWebHost(), facebookGraphHost(graph), ruploadHost()],
  // A video fetched from `file_url` when the restart came never gets its bytes: it fails. A
  // chunked upload under way (some bytes already) is the client's to finish.
  restored: (state) => {
    for (const video of state.meta.fbVideos.values()) {
      if (video.upload !== 'in_progress' || video.bytes > 0) continue;
      video.upload = 'error';
      video.error = INTERRUPTED;
    }
  },
};
