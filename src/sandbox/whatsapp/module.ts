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

declare module '../core/settings.ts' {
  interface ModuleSettings {
    /** WhatsApp Cloud API (platforms.md §7): status progression, template review, window rule. */
    whatsapp: {
      /** A send is `sent`, then `delivered`, then `read` after these delays (null: never read). */
      sentMs: number;
      deliveredMs: number;
      readMs: number | null;
      /** Templates stay PENDING this long, then get `templateReviewOutcome`. */
      templateReviewMs: number;
      templateReviewOutcome: 'APPROVED' | 'REJECTED';
      /** Free-form sends outside the 24 h window: refused at once (`sync`) or failed by webhook. */
      windowErrorMode: 'sync' | 'webhook';
      /** Marketing templates one person may get per 24 h before 131049 (null: no cap). */
      marketingPerUserPerDay: number | null;
      /** How long a media download URL stays valid (§7.2: 5 minutes). */
      mediaUrlTtlSeconds: number;
    };
  }
}

export const whatsappModule: SandboxModule<'whatsapp', WhatsAppStore> = {
  name: 'whatsapp',
  settings: () => ({
    whatsapp: {
      sentMs: 0,
      deliveredMs: 1000,
      readMs: 5000,
      templateReviewMs: 2000,
      templateReviewOutcome: 'APPROVED',
      windowErrorMode: 'sync',
      marketingPerUserPerDay: null,
      mediaUrlTtlSeconds: 300,
    },
  }),
  store: () => new WhatsAppStore(),
  seed: seedWhatsApp,
  hosts: () => [lookasideHost()],
  graph: { nodes: whatsappNodes },
  control: registerWhatsAppControl,
};
