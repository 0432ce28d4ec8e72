// The whatsapp module: the Cloud API nodes on graph.facebook.com, the media download host, its
// store, the default business account (of the default Facebook user, so after the facebook
// module in the list), and its control routes (`/_sandbox/whatsapp/…`).
import type { SandboxModule } from '../module.ts';
import { registerWhatsAppControl } from './control.ts';
import { lookasideHost } from './media.ts';
import { whatsappNodes } from './nodes.ts';
import { seedWhatsApp } from './seed.ts';
import { WhatsAppStore } from './store.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly whatsapp: WhatsAppStore;
  }
}

export const whatsappModule: SandboxModule<'whatsapp', WhatsAppStore> = {
  name: 'whatsapp',
  store: () => new WhatsAppStore(),
  seed: seedWhatsApp,
  hosts: () => [lookasideHost()],
  graph: { nodes: whatsappNodes },
  control: registerWhatsAppControl,
};
