// The instagram module: Instagram Login (www.instagram.com, api.instagram.com) and
// graph.instagram.com. Its objects live in the Meta store (meta/module.ts); its default account
// is the one linked to the default Page (facebook/module.ts).
import { list } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { instagramGraphHost, instagramWebHosts } from './hosts.ts';

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly instagram: true;
  }
}

export const instagramModule: SandboxModule<'instagram'> = {
  name: 'instagram',
  oauth: true,
  people: {
    list: (state) => [...state.people.instagramAccounts.values()],
    seed: (state, body) => list(body).map((a) => state.addInstagramAccount(a)),
  },
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
