// The webhooks module: the apps' webhook subscriptions and the deliveries the sandbox made (Meta's
// webhooks, sent by the Graph surfaces), and their control routes (`/_sandbox/webhooks`).
import type { SandboxModule } from '../module.ts';
import { registerWebhooksControl } from './control.ts';
import { WebhookRegistry } from './registry.ts';

declare module '../core/module.ts' {
  interface SandboxStores {
    readonly webhooks: WebhookRegistry;
  }
}

export const webhooksModule: SandboxModule<'webhooks', WebhookRegistry> = {
  name: 'webhooks',
  store: () => new WebhookRegistry(),
  control: registerWebhooksControl,
};
