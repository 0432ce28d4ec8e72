// The facebook module: the Login dialog, graph.facebook.com (with what other modules add to it)
// and rupload.facebook.com, and the default Facebook user with two Pages, one linked to an
// Instagram account. Its objects live in the Meta store (meta/module.ts).
import type { SandboxModule } from '../module.ts';
import { facebookGraphHost, facebookWebHost } from './hosts.ts';
import { ruploadHost } from './rupload.ts';

const INTERRUPTED = 'The download was interrupted by a sandbox restart';

export const facebookModule: SandboxModule<'facebook'> = {
  name: 'facebook',
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
