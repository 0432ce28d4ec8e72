// The pinterest module: www.pinterest.com, api.pinterest.com and the video upload host, its store,
// and the user `sandbox_pins` with boards "Sandbox Recipes" (sections Breads, Cakes) and
// "Sandbox Reading" (DESIGN "More platforms", Sandbox). Settings: `pinterest.trial` (an app with
// Trial access: Pin creation on api.pinterest.com answers 403 code 29, and every call counts
// against `trialDailyRequests` a UTC day) and the Standard per-minute limits per category.
import { list, obj } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { registerPinterestControl } from './control.ts';
import { pinterestHosts } from './hosts.ts';
import { addPinterestUser, freshPinterestPeople, type BoardPrivacy } from './people.ts';
import { PinterestStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly pinterest: PinterestStore;
  }
}

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly pinterest: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    /** Video processing after the upload. */
    pinterestVideoMs: number;
  }
  interface TokenSettings {
    /** Access tokens: 30 days. */
    pinterestAccess: number;
    /** Refresh tokens: 365 days, renewed at every refresh (continuous refresh). */
    pinterestRefresh: number;
    codePinterest: number;
  }
  interface ModuleSettings {
    pinterest: {
      /** The app has Trial access (new apps). */
      trial: boolean;
      /** Calls a UTC day for an app with Trial access. */
      trialDailyRequests: number;
      /** Standard access, per user and minute: org_write (Pins, media), org_read, org_analytics. */
      writesPerMinute: number;
      readsPerMinute: number;
      analyticsPerMinute: number;
    };
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const pinterestModule: SandboxModule<'pinterest', PinterestStore> = {
  name: 'pinterest',
  oauth: true,
  settings: () => ({
    processing: { pinterestVideoMs: 1000 },
    tokens: { pinterestAccess: 2_592_000, pinterestRefresh: 31_536_000, codePinterest: 600 },
    pinterest: { trial: false, trialDailyRequests: 1000, writesPerMinute: 100, readsPerMinute: 1000, analyticsPerMinute: 300 },
  }),
  store: () => new PinterestStore(),
  seed: (state) => {
    state.addPinterestUser({ username: 'sandbox_pins', boards: [{ name: 'Sandbox Recipes', sections: ['Breads', 'Cakes'] }, { name: 'Sandbox Reading' }] });
  },
  people: {
    fresh: freshPinterestPeople,
    list: (state) => ({ users: [...state.people.pinterestUsers.values()], boards: [...state.people.pinterestBoards.values()] }),
    seed: (state, body) =>
      list(obj(body).users).map((u) => {
        const username = text(u.username);
        return state.addPinterestUser({
          ...(username ? { username } : {}),
          boards: list(u.boards).map((b) => ({
            name: text(b.name) ?? 'Sandbox Board',
            ...(typeof b.privacy === 'string' ? { privacy: b.privacy as BoardPrivacy } : {}),
            sections: Array.isArray(b.sections) ? b.sections.filter((s): s is string => typeof s === 'string') : [],
          })),
        });
      }),
  },
  methods: { addPinterestUser },
  hosts: pinterestHosts,
  control: registerPinterestControl,
};
