// The bluesky module (DESIGN "More platforms", Sandbox; platforms/bluesky.md): bsky.social (the
// entryway and the PDS of every sandbox account), plc.directory and video.bsky.app; its store;
// the accounts `sandbox.bsky.social` (display name "Sandbox Bluesky", app password
// `sand-box0-app0-pass`, a main password with email 2FA), `friend.bsky.social` and
// `reader.bsky.social`; the control routes of control.ts. Sessions use app passwords, not OAuth,
// so the module has no OAuth flavour. Settings: token lifetimes, the refresh grace, the rate
// limits, the blob and video caps and the daily video limits.
import { list } from '../core/control.ts';
import type { SandboxModule } from '../module.ts';
import { registerBlueskyControl } from './control.ts';
import { blueskyHosts } from './hosts.ts';
import { addBlueskyAccount, freshBlueskyPeople } from './people.ts';
import { BlueskyStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly bluesky: BlueskyStore;
  }
}

declare module '../core/settings.ts' {
  interface ProcessingSettings {
    /** Video encoding at video.bsky.app after the upload. */
    blueskyVideoMs: number;
  }
  interface TokenSettings {
    /** Access JWTs: 2 hours. */
    blueskyAccess: number;
    /** Refresh JWTs: 90 days, a new one at each refresh. */
    blueskyRefresh: number;
  }
  interface ModuleSettings {
    bluesky: {
      /** How long a refresh token still works after it was used (the PDS: 2 hours). */
      refreshGraceSeconds: number;
      /** PDS requests per client in 5 minutes. */
      requestsPer5Min: number;
      /** createSession per identifier: 30 in 5 minutes, 300 a day. */
      sessionsPer5Min: number;
      sessionsPerDay: number;
      /** Record-write points per DID (create 3, update 2, delete 1). */
      writePointsPerHour: number;
      writePointsPerDay: number;
      /** uploadBlob's cap: 50 MiB, Bluesky's own PDS (the self-hosted distribution matched it: PDS_BLOB_UPLOAD_LIMIT=52428800). */
      maxBlobBytes: number;
      /** uploadVideo's cap. */
      maxVideoBytes: number;
      /** How long after createRecord the reads (the AppView) see a record: 0, or a firehose delay to test against. */
      appViewLagMs: number;
      /** Videos and bytes an account may upload a day. */
      dailyVideos: number;
      dailyVideoBytes: number;
    };
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const blueskyModule: SandboxModule<'bluesky', BlueskyStore> = {
  name: 'bluesky',
  settings: () => ({
    processing: { blueskyVideoMs: 3000 },
    tokens: { blueskyAccess: 7200, blueskyRefresh: 7_776_000 },
    bluesky: {
      refreshGraceSeconds: 7200,
      requestsPer5Min: 3000,
      sessionsPer5Min: 30,
      sessionsPerDay: 300,
      writePointsPerHour: 5000,
      writePointsPerDay: 35_000,
      maxBlobBytes: 52_428_800,
      maxVideoBytes: 100_000_000,
      appViewLagMs: 0,
      dailyVideos: 25,
      dailyVideoBytes: 10_000_000_000,
    },
  }),
  store: () => new BlueskyStore(),
  seed: (state) => {
    state.addBlueskyAccount({ handle: 'sandbox.bsky.social', displayName: 'Sandbox Bluesky', appPassword: 'sand-box0-app0-pass', emailAuthFactor: true, followersCount: 128, followsCount: 64 });
    state.addBlueskyAccount({ handle: 'friend.bsky.social', displayName: 'Sandbox Friend' });
    state.addBlueskyAccount({ handle: 'reader.bsky.social', displayName: 'Sandbox Reader' });
  },
  people: {
    fresh: freshBlueskyPeople,
    list: (state) => [...state.people.blueskyAccounts.values()],
    seed: (state, body) =>
      list(body).map((a) =>
        state.addBlueskyAccount({
          ...(str(a.handle) ? { handle: str(a.handle) } : {}),
          ...(str(a.displayName) ? { displayName: str(a.displayName) } : {}),
          ...(str(a.email) ? { email: str(a.email) } : {}),
          ...(str(a.password) ? { password: str(a.password) } : {}),
          ...(str(a.appPassword) ? { appPassword: str(a.appPassword) } : {}),
          ...(typeof a.emailConfirmed === 'boolean' ? { emailConfirmed: a.emailConfirmed } : {}),
          ...(typeof a.emailAuthFactor === 'boolean' ? { emailAuthFactor: a.emailAuthFactor } : {}),
        }),
      ),
  },
  methods: { addBlueskyAccount },
  hosts: blueskyHosts,
  control: registerBlueskyControl,
};
