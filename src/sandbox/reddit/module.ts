// The reddit module: its hosts, its store, the user `sandbox_user` and four subreddits with the
// rules the service must meet (flairs, a required flair, text only, links only); its control
// route makes a person comment (control.ts).
import { ControlError, list, obj } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { registerRedditControl } from './control.ts';
import { redditHosts } from './hosts.ts';
import { addRedditUser, addSubreddit, freshRedditPeople } from './people.ts';
import { RedditStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly reddit: RedditStore;
  }
}

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly reddit: true;
  }
}

declare module '../core/settings.ts' {
  interface TokenSettings {
    redditAccess: number;
    /** Authorization codes: 10 minutes. */
    codeReddit: number;
  }
  interface LimitSettings {
    /** reddit: 100 queries a minute averaged over 10 minutes, per client id (§6.3). */
    redditRequestsPerWindow: number;
    redditWindowSeconds: number;
  }
}

export const redditModule: SandboxModule<'reddit', RedditStore> = {
  name: 'reddit',
  oauth: true,
  settings: () => ({
    tokens: { redditAccess: 3600, codeReddit: 600 },
    limits: { redditRequestsPerWindow: 1000, redditWindowSeconds: 600 },
  }),
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
  people: {
    fresh: freshRedditPeople,
    list: (state) => ({ users: [...state.people.redditUsers.values()], subreddits: [...state.people.subreddits.values()] }),
    seed: (state, body) => {
      const reddit = obj(body);
      return {
        users: list(reddit.users).map((u) => state.addRedditUser(u)),
        subreddits: list(reddit.subreddits).map((s) => {
          if (typeof s.name !== 'string' || !s.name) throw new ControlError('reddit.subreddits[].name: required');
          return state.addSubreddit({ ...s, name: s.name });
        }),
      };
    },
  },
  methods: { addRedditUser, addSubreddit },
  hosts: redditHosts,
  control: registerRedditControl,
};
