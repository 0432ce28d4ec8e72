// Every sandbox module, in one list: a new platform surface is one folder exporting a descriptor
// (module.ts) and one line here. The order is the order of the default seeds (the WhatsApp
// business and the ad account belong to the Facebook user, so come after facebook) and of the
// Graph nodes other modules add to graph.facebook.com.
import type { SandboxStores, StoresOf } from './core/module.ts';
import { adsModule } from './ads/module.ts';
import { blueskyModule } from './bluesky/module.ts';
import { facebookModule } from './facebook/module.ts';
import { insightsModule } from './insights/module.ts';
import { instagramModule } from './instagram/module.ts';
import { linkedinModule } from './linkedin/module.ts';
import { metaModule } from './meta/module.ts';
import { pinterestModule } from './pinterest/module.ts';
import { redditModule } from './reddit/module.ts';
import { threadsModule } from './threads/module.ts';
import { tiktokModule } from './tiktok/module.ts';
import { webhooksModule } from './webhooks/module.ts';
import { whatsappModule } from './whatsapp/module.ts';
import { xModule } from './x/module.ts';
import { youtubeModule } from './youtube/module.ts';

export const SANDBOX_MODULES = [
  metaModule,
  facebookModule,
  instagramModule,
  threadsModule,
  tiktokModule,
  redditModule,
  linkedinModule,
  xModule,
  youtubeModule,
  pinterestModule,
  blueskyModule,
  whatsappModule,
  adsModule,
  insightsModule,
  webhooksModule,
] as const;

/**
 * The stores the list builds are the stores the modules declare on SandboxStores (the type of
 * `state.threads` …), no more, no fewer: a module left out of the list, or a declaration left
 * behind, fails the typecheck here.
 */
export type ListedStoresAreDeclared = Assert<Same<StoresOf<typeof SANDBOX_MODULES>, SandboxStores>>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
