// Every platform's adapter, one line each. Adding a platform is one folder under platforms/ and
// one line here.
import type { Config } from '../config.ts';
import { platformContext, type PlatformContext } from './context.ts';
import { facebookAdapter } from './facebook/index.ts';
import { instagramAdapter } from './instagram/index.ts';
import { redditAdapter } from './reddit/index.ts';
import { threadsAdapter } from './threads/index.ts';
import { tiktokAdapter } from './tiktok/index.ts';
import type { Platform, PlatformAdapter } from './types.ts';
import { whatsappAdapter } from './whatsapp/index.ts';

export type AdapterRegistry = Record<Platform, PlatformAdapter>;

export function createAdapters(ctx: PlatformContext): AdapterRegistry {
  return {
    reddit: redditAdapter(ctx),
    instagram: instagramAdapter(ctx),
    facebook: facebookAdapter(ctx),
    threads: threadsAdapter(ctx),
    tiktok: tiktokAdapter(ctx),
    whatsapp: whatsappAdapter(ctx),
  };
}

const cache = new WeakMap<Config, AdapterRegistry>();

/** The adapters for a configuration, built once. */
export function adaptersFor(config: Config): AdapterRegistry {
  const cached = cache.get(config);
  if (cached) return cached;
  const adapters = createAdapters(platformContext(config));
  cache.set(config, adapters);
  return adapters;
}

/** The adapter of a stored platform name (null for a name no adapter serves). */
export function adapterOf(config: Config, platform: string): PlatformAdapter | null {
  const adapters = adaptersFor(config);
  return Object.hasOwn(adapters, platform) ? adapters[platform as Platform] : null;
}
