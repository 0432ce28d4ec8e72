// The threads module: its login hosts and graph.threads.net, its store, `sandbox.threads`, and
// the control route that makes a person reply (control.ts).
import type { SandboxModule } from '../module.ts';
import { registerThreadsControl } from './control.ts';
import { threadsGraphHost, threadsWebHosts } from './hosts.ts';
import { ThreadsStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly threads: ThreadsStore;
  }
}

export const threadsModule: SandboxModule<'threads', ThreadsStore> = {
  name: 'threads',
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
