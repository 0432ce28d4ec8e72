// The facebook module: the Login dialog, graph.facebook.com (with what other modules add to it)
// and rupload.facebook.com, and the default Facebook user with two Pages, one linked to an
// Instagram account. Its objects live in the Meta store (meta/module.ts).
import { list } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { facebookGraphHost, facebookWebHost } from './hosts.ts';
import { ruploadHost } from './rupload.ts';

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly facebook: true;
  }
}

const INTERRUPTED = 'The download was interrupted by a sandbox restart';

export const facebookModule: SandboxModule<'facebook'> = {
  name: 'facebook',
  oauth: true,
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
