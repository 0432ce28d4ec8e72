// The insights module: its store (retired metric names, reddit votes) and its control routes.
// The Graph insights handlers (instagram, facebook, threads) and reddit's things read it.
import type { SandboxModule } from '../module.ts';
import { registerInsightsControl } from './control.ts';
import { InsightsStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly insights: InsightsStore;
  }
}

export const insightsModule: SandboxModule<'insights', InsightsStore> = {
  name: 'insights',
  store: () => new InsightsStore(),
  control: registerInsightsControl,
};
