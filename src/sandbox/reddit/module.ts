// The reddit module: its hosts, its store, the user `sandbox_user` and four subreddits with the
// rules the service must meet (flairs, a required flair, text only, links only); its control
// route makes a person comment (control.ts).
import type { SandboxModule } from '../module.ts';
import { registerRedditControl } from './control.ts';
import { redditHosts } from './hosts.ts';
import { RedditStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly reddit: RedditStore;
  }
}

export const redditModule: SandboxModule<'reddit', RedditStore> = {
  name: 'reddit',
  store: () => new RedditStore(),
  seed: (state) => {
    state.addRedditUser({ name: 'sandbox_user' });
    state.addSubreddit({
      name: 'sandbox',
      title: 'Sandbox',
      flairs: [{ text: 'Discussion' }, { text: 'News' }, { text: 'Other', textEditable: true }],
    });
    state.addSubreddit({ name: 'sandbox_flair', title: 'Flair required', flairs: [{ text: 'Question' }, { text: 'Showcase' }], flairRequired: true });
    state.addSubreddit({ name: 'sandbox_text', title: 'Text posts only', submissionType: 'self' });
    state.addSubreddit({ name: 'sandbox_links', title: 'Links only', submissionType: 'link' });
  },
  hosts: redditHosts,
  control: registerRedditControl,
};
