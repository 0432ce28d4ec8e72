// The ads module (the Marketing API): its nodes and `/search` on graph.facebook.com, its store,
// the default ad account (of the default Facebook user, so after the facebook module in the
// list), and its control routes (`/_sandbox/ads/…`).
import type { SandboxModule } from '../module.ts';
import { registerAdsControl } from './control.ts';
import { adsNodes } from './nodes.ts';
import { adsSearch } from './search.ts';
import { seedAds } from './seed.ts';
import { AdsStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly ads: AdsStore;
  }
}

declare module '../core/settings.ts' {
  interface ModuleSettings {
    /** Marketing API (platforms.md §9). */
    ads: {
      /** Ads are PENDING_REVIEW this long after they are created active. */
      reviewMs: number;
      /** Smallest daily budget, in minor units of the account's currency. */
      minDailyBudget: number;
      /** Calls per ad account in the usage window before throttling (X-Ad-Account-Usage at 100 %). */
      callsPerWindow: number;
      usageWindowSeconds: number;
      /** Refuse new ad sets without `targeting_automation.advantage_audience` (§9.2, unconfirmed). */
      requireAdvantageAudienceFlag: boolean;
    };
  }
}

export const adsModule: SandboxModule<'ads', AdsStore> = {
  name: 'ads',
  settings: () => ({
    ads: { reviewMs: 0, minDailyBudget: 100, callsPerWindow: 1000, usageWindowSeconds: 300, requireAdvantageAudienceFlag: false },
  }),
  store: () => new AdsStore(),
  seed: seedAds,
  graph: {
    nodes: adsNodes,
    routes: (host) => {
      host.get('/search', adsSearch);
    },
  },
  control: registerAdsControl,
};
