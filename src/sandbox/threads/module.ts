// The threads module: its login hosts and graph.threads.net, its store, `sandbox.threads`, and
// the control route that makes a person reply (control.ts).
import { list } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { registerThreadsControl } from './control.ts';
import { threadsGraphHost, threadsWebHosts } from './hosts.ts';
import { addThreadsUser, freshThreadsPeople } from './people.ts';
import { ThreadsStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly threads: ThreadsStore;
  }
}

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly threads: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    threadsTextMs: number;
    threadsMediaMs: number;
  }
  interface TokenSettings {
    threadsShort: number;
    threadsLong: number;
    /** Authorization codes: 1 hour. */
    codeThreads: number;
  }
  interface LimitSettings {
    threadsPosts: number;
    threadsReplies: number;
    threadsDeletes: number;
  }
}

export const threadsModule: SandboxModule<'threads', ThreadsStore> = {
  name: 'threads',
  oauth: true,
  settings: () => ({
    processing: { threadsTextMs: 0, threadsMediaMs: 2000 },
    tokens: { threadsShort: 3600, threadsLong: 5_184_000, codeThreads: 3600 },
    limits: { threadsPosts: 250, threadsReplies: 1000, threadsDeletes: 100 },
  }),
  people: {
    fresh: freshThreadsPeople,
    list: (state) => [...state.people.threadsUsers.values()],
    seed: (state, body) => list(body).map((u) => state.addThreadsUser(u)),
  },
  methods: { addThreadsUser },
  store: () => new ThreadsStore(),
  seed: (state) => {
    state.addThreadsUser({ username: 'sandbox.threads', name: 'Sandbox Threads' });
  },
  hosts: () => [...threadsWebHosts(), threadsGraphHost()],
  control: registerThreadsControl,
  // A container whose media download the restart cut off fails as a failed download does.
  restored: (state) => {
    for (const container of state.threads.containers.values()) {
      if (container.download !== 'pending') continue;
      container.download = 'failed';
      container.errorMessage = container.mediaType === 'VIDEO' ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN';
    }
  },
};
