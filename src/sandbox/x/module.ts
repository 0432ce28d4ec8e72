// The x module: x.com's consent page and api.x.com, its store, the user `sandbox_x`, and the
// control route that sets a post's metrics (control.ts). Settings: `x.reads` (off: the paid reads
// answer 403 client-forbidden) and `x.postsPer15Min` (POST /2/tweets per user and window).
import { list } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { registerXControl } from './control.ts';
import { xHosts } from './hosts.ts';
import { addXUser, freshXPeople } from './people.ts';
import { XStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly x: XStore;
  }
}

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly x: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    /** Video and GIF processing after finalize. */
    xVideoMs: number;
  }
  interface TokenSettings {
    /** Access tokens: 2 hours. */
    xAccess: number;
    xRefresh: number;
    /** Authorization codes: 30 seconds. */
    codeX: number;
  }
  interface ModuleSettings {
    x: {
      /** The app's access level includes reads (timelines, lookups, metrics). */
      reads: boolean;
      /** POST /2/tweets per user in 15 minutes (100 under pay-per-use). */
      postsPer15Min: number;
    };
  }
}

export const xModule: SandboxModule<'x', XStore> = {
  name: 'x',
  oauth: true,
  settings: () => ({
    processing: { xVideoMs: 2000 },
    tokens: { xAccess: 7200, xRefresh: 15_552_000, codeX: 30 },
    x: { reads: true, postsPer15Min: 100 },
  }),
  store: () => new XStore(),
  seed: (state) => {
    state.addXUser({ username: 'sandbox_x', name: 'Sandbox X' });
  },
  people: {
    fresh: freshXPeople,
    list: (state) => [...state.people.xUsers.values()],
    seed: (state, body) => list(body).map((u) => state.addXUser(u)),
  },
  methods: { addXUser },
  hosts: xHosts,
  control: registerXControl,
};
