// The youtube module: Google's consent and token hosts, the Data API (resumable uploads included)
// and the Analytics API, its store, and "Sandbox User" with the channel "Sandbox Bakery TV" and the
// Brand Account "Sandbox Books TV" (DESIGN "More platforms", Sandbox). Settings: `youtube.quota`
// (units a project may spend per Pacific day), `youtube.uploads` (videos.insert per day, their own
// bucket), `youtube.uploadUnits` (units an upload costs under the older scheme, when > 1),
// `youtube.audited` (off: uploads are locked private), `youtube.testing` (the consent screen is in
// "Testing": refresh tokens end after 7 days), `youtube.channelDailyUploads`, `youtube.sessionSeconds`.
import { list, obj } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { registerYouTubeControl } from './control.ts';
import { youtubeHosts } from './hosts.ts';
import { addGoogleUser, freshYouTubePeople } from './people.ts';
import { YouTubeStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly youtube: YouTubeStore;
  }
}

declare module '../core/model.ts' {
  interface OAuthPlatforms {
    readonly youtube: true;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    /** uploaded → processed after the last byte. */
    youtubeVideoMs: number;
  }
  interface TokenSettings {
    /** Access tokens: 3599 seconds. */
    googleAccess: number;
    codeGoogle: number;
  }
  interface ModuleSettings {
    youtube: {
      quota: number;
      uploads: number;
      uploadUnits: number;
      audited: boolean;
      testing: boolean;
      channelDailyUploads: number;
      /** How long a resumable session URI stays usable (about a week: unconfirmed for YouTube). */
      sessionSeconds: number;
    };
  }
}

export const youtubeModule: SandboxModule<'youtube', YouTubeStore> = {
  name: 'youtube',
  oauth: true,
  settings: () => ({
    processing: { youtubeVideoMs: 1000 },
    tokens: { googleAccess: 3599, codeGoogle: 600 },
    youtube: { quota: 10_000, uploads: 100, uploadUnits: 1, audited: false, testing: false, channelDailyUploads: 50, sessionSeconds: 7 * 86_400 },
  }),
  people: {
    fresh: freshYouTubePeople,
    list: (state) => ({ users: [...state.people.googleUsers.values()], channels: [...state.people.youtubeChannels.values()] }),
    seed: (state, body) =>
      list(obj(body).users).map((u) =>
        state.addGoogleUser({
          ...(typeof u.name === 'string' ? { name: u.name } : {}),
          channels: list(u.channels).map((c) => ({ title: typeof c.title === 'string' ? c.title : 'Sandbox Channel', ...(typeof c.verified === 'boolean' ? { verified: c.verified } : {}) })),
          ...(u.oneIdentity === true ? { oneIdentity: true } : {}),
        }),
      ),
  },
  methods: { addGoogleUser },
  store: () => new YouTubeStore(),
  seed: (state) => {
    state.addGoogleUser({ name: 'Sandbox User', channels: [{ title: 'Sandbox Bakery TV' }, { title: 'Sandbox Books TV' }] });
  },
  hosts: youtubeHosts,
  control: registerYouTubeControl,
  journalHeaders: ['x-upload-content-length', 'x-upload-content-type'],
};
