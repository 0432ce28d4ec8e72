// The linkedin module: www.linkedin.com and api.linkedin.com, its store, and "Sandbox Member",
// administrator of "Sandbox Bakery" and "Sandbox Books" (DESIGN "More platforms", Sandbox).
import { list, obj } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { registerLinkedInControl } from './control.ts';
import { linkedinHosts } from './hosts.ts';
import { addLinkedInMember, freshLinkedInPeople, type LinkedInRole } from './people.ts';
import { LinkedInStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly linkedin: LinkedInStore;
  }
}

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly linkedin: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    linkedinImageMs: number;
    linkedinVideoMs: number;
  }
  interface TokenSettings {
    /** Access tokens: 60 days. */
    linkedinAccess: number;
    /** Refresh tokens: 365 days from consent, never extended. */
    linkedinRefresh: number;
    codeLinkedin: number;
  }
  interface ModuleSettings {
    linkedin: {
      /** The app is approved for programmatic refresh tokens (most apps are not). */
      refreshTokens: boolean;
      /** Video upload parts (4 MB at LinkedIn). */
      videoPartBytes: number;
      /** Posts a member may make per UTC day (LinkedIn does not publish its figure). */
      dailyPosts: number;
    };
  }
}

export const linkedinModule: SandboxModule<'linkedin', LinkedInStore> = {
  name: 'linkedin',
  oauth: true,
  settings: () => ({
    processing: { linkedinImageMs: 0, linkedinVideoMs: 1000 },
    tokens: { linkedinAccess: 5_184_000, linkedinRefresh: 31_536_000, codeLinkedin: 1800 },
    linkedin: { refreshTokens: false, videoPartBytes: 4 * 1024 * 1024, dailyPosts: 150 },
  }),
  people: {
    fresh: freshLinkedInPeople,
    list: (state) => ({ members: [...state.people.linkedinMembers.values()], organizations: [...state.people.linkedinOrganizations.values()] }),
    seed: (state, body) =>
      list(obj(body).members).map((m) =>
        state.addLinkedInMember({
          ...(typeof m.name === 'string' ? { name: m.name } : {}),
          organizations: list(m.organizations).map((o) => ({ name: typeof o.name === 'string' ? o.name : 'Sandbox Organization', ...(typeof o.role === 'string' ? { role: o.role as LinkedInRole } : {}) })),
        }),
      ),
  },
  methods: { addLinkedInMember },
  store: () => new LinkedInStore(),
  seed: (state) => {
    state.addLinkedInMember({ name: 'Sandbox Member', organizations: [{ name: 'Sandbox Bakery' }, { name: 'Sandbox Books' }] });
  },
  hosts: linkedinHosts,
  control: registerLinkedInControl,
  journalHeaders: ['linkedin-version', 'x-restli-protocol-version', 'x-restli-method'],
};
