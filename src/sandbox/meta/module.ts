// The Meta module: the store shared by the Graph surfaces (Pages, Instagram, messaging, Page
// webhooks' subscribed apps), and the control routes of what people do there (`/_sandbox/meta/…`).
// Its hosts are the facebook and instagram modules'.
import type { SandboxModule } from '../module.ts';
import { registerMetaControl } from './control.ts';
import { MetaStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    /** Facebook Pages, Instagram and messaging objects (the Meta piece). */
    readonly meta: MetaStore;
  }
}

export const metaModule: SandboxModule<'meta', MetaStore> = {
  name: 'meta',
  store: () => new MetaStore(),
  control: registerMetaControl,
};
