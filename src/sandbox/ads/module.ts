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

export const adsModule: SandboxModule<'ads', AdsStore> = {
  name: 'ads',
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
