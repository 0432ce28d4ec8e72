// Every platform's adapter, one line each, built once at start from the config with one HTTP
// client and handed down as `deps.platforms`. Adding a platform is one folder under platforms/
// (its index.ts builds the adapter) and one line here.
import { createPlatformContext, type ContextConfig } from './context.ts';
import { facebookAdapter } from './facebook/index.ts';
import type { PlatformHttp } from './http.ts';
import { instagramAdapter } from './instagram/index.ts';
import { redditAdapter } from './reddit/index.ts';
import { threadsAdapter } from './threads/index.ts';
import { tiktokAdapter } from './tiktok/index.ts';
import { isPlatform, type Platform, type PlatformAdapter, type Platforms } from './types.ts';
import { whatsappAdapter } from './whatsapp/index.ts';

/** Watches platform calls (metrics): wraps the HTTP client before adapters use it, and each adapter. */
export interface PlatformObserver {
  http(http: PlatformHttp): PlatformHttp;
  adapter<P extends Platform>(adapter: PlatformAdapter<P>): PlatformAdapter<P>;
}

export function createPlatforms(config: ContextConfig, observer?: PlatformObserver): Platforms {
  const base = createPlatformContext(config);
  const ctx = observer ? { ...base, http: observer.http(base.http) } : base;
  const watch = <P extends Platform>(adapter: PlatformAdapter<P>) => (observer ? observer.adapter(adapter) : adapter);
  const adapters: Platforms['adapters'] = {
    reddit: watch(redditAdapter(ctx)),
    instagram: watch(instagramAdapter(ctx)),
    facebook: watch(facebookAdapter(ctx)),
    threads: watch(threadsAdapter(ctx)),
    tiktok: watch(tiktokAdapter(ctx)),
    whatsapp: watch(whatsappAdapter(ctx)),
  };
  return {
    adapters,
    of: (name) => (isPlatform(name) ? adapters[name] : null),
    apps: ctx.apps,
    metaWebhookVerifyToken: ctx.metaWebhookVerifyToken,
  };
}
