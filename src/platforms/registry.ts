// Every platform's adapter, one line each, built once at start from the config with one HTTP
// client and handed down as `deps.platforms`. Adding a platform is one folder under platforms/
// (its index.ts builds the adapter) and one line here.
import { createPlatformContext, type ContextConfig } from './context.ts';
import { facebookAdapter } from './facebook/index.ts';
import type { FetchFn } from './http.ts';
import { instagramAdapter } from './instagram/index.ts';
import { redditAdapter } from './reddit/index.ts';
import { threadsAdapter } from './threads/index.ts';
import { tiktokAdapter } from './tiktok/index.ts';
import { isPlatform, type Platforms } from './types.ts';
import { whatsappAdapter } from './whatsapp/index.ts';

/** `fetchFn`: what the platform HTTP client sends with (a test may pass its own). */
export function createPlatforms(config: ContextConfig, fetchFn: FetchFn = fetch): Platforms {
  const ctx = createPlatformContext(config, fetchFn);
  const adapters: Platforms['adapters'] = {
    reddit: redditAdapter(ctx),
    instagram: instagramAdapter(ctx),
    facebook: facebookAdapter(ctx),
    threads: threadsAdapter(ctx),
    tiktok: tiktokAdapter(ctx),
    whatsapp: whatsappAdapter(ctx),
  };
  return {
    adapters,
    of: (name) => (isPlatform(name) ? adapters[name] : null),
    apps: ctx.apps,
    metaWebhookVerifyToken: ctx.metaWebhookVerifyToken,
  };
}
