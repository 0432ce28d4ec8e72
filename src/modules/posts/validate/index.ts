// One validator per platform, and the warnings no single platform can give: a key that belongs
// to another platform, or to none. Those keys are skipped (never sent) and reported on the
// target as `warnings`. The result carries the platform with its typed options (the schemas
// and types are in src/platforms/<platform>/options.ts); `options` is what is stored per target.
import { Value } from 'typebox/value';
import { FacebookOptions } from '../../../platforms/facebook/options.ts';
import { InstagramOptions } from '../../../platforms/instagram/options.ts';
import { RedditOptions } from '../../../platforms/reddit/options.ts';
import { ThreadsOptions } from '../../../platforms/threads/options.ts';
import { TiktokOptions } from '../../../platforms/tiktok/options.ts';
import type { PlatformOptions, PostPlatform } from '../../../platforms/target-options.ts';
import { POST_PLATFORMS } from '../schemas.ts';
import type { TargetInput, Warning } from './common.ts';
import { FACEBOOK_KEYS, validateFacebook } from './facebook.ts';
import { INSTAGRAM_KEYS, validateInstagram } from './instagram.ts';
import { REDDIT_KEYS, validateReddit } from './reddit.ts';
import { THREADS_KEYS, validateThreads } from './threads.ts';
import { TIKTOK_KEYS, validateTiktok } from './tiktok.ts';

export type { TargetInput, Warning } from './common.ts';

export type { PlatformOptions, PostPlatform } from '../../../platforms/target-options.ts';

/** The platform, its options as stored and read by the publisher, and the keys skipped. */
export type TargetResult = PlatformOptions & { warnings: Warning[] };

const KEYS: Record<PostPlatform, readonly string[]> = {
  reddit: REDDIT_KEYS,
  instagram: INSTAGRAM_KEYS,
  facebook: FACEBOOK_KEYS,
  threads: THREADS_KEYS,
  tiktok: TIKTOK_KEYS,
};

/** Platforms posts can target (accounts of other platforms, e.g. whatsapp, cannot be). */
export const POSTABLE_PLATFORMS: readonly string[] = POST_PLATFORMS;

export const isPostPlatform = (platform: string): platform is PostPlatform => POSTABLE_PLATFORMS.includes(platform);

function validateOwn(platform: PostPlatform, input: TargetInput): TargetResult {
  switch (platform) {
    case 'reddit':
      return { platform, ...validateReddit(input) };
    case 'instagram':
      return { platform, ...validateInstagram(input) };
    case 'facebook':
      return { platform, ...validateFacebook(input) };
    case 'threads':
      return { platform, ...validateThreads(input) };
    case 'tiktok':
      return { platform, ...validateTiktok(input) };
    default: {
      const unreachable: never = platform;
      return unreachable;
    }
  }
}

export function validateTarget(platform: PostPlatform, input: TargetInput): TargetResult {
  const own = new Set(KEYS[platform]);
  const foreign: Warning[] = [];
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.data)) {
    if (own.has(key)) {
      data[key] = value;
      continue;
    }
    const owners = Object.entries(KEYS)
      .filter(([, keys]) => keys.includes(key))
      .map(([name]) => name);
    foreign.push({ key, message: owners.length ? `applies to ${owners.join(', ')}, not ${platform}; skipped` : `unknown key for ${platform}; skipped` });
  }
  const result = validateOwn(platform, { ...input, data });
  return { ...result, warnings: [...foreign, ...result.warnings] };
}

/**
 * A target's stored options (post_targets.options, JSON) read back as the typed value, for the
 * delivery job to hand its publisher; null when they do not match the platform's options schema
 * (the row was written by a version whose options had another shape).
 */
export function parseStoredOptions(platform: string, json: string): PlatformOptions | null {
  if (!isPostPlatform(platform)) return null;
  const options: unknown = JSON.parse(json);
  switch (platform) {
    case 'reddit':
      return Value.Check(RedditOptions, options) ? { platform, options } : null;
    case 'instagram':
      return Value.Check(InstagramOptions, options) ? { platform, options } : null;
    case 'facebook':
      return Value.Check(FacebookOptions, options) ? { platform, options } : null;
    case 'threads':
      return Value.Check(ThreadsOptions, options) ? { platform, options } : null;
    case 'tiktok':
      return Value.Check(TiktokOptions, options) ? { platform, options } : null;
    default: {
      const unreachable: never = platform;
      return unreachable;
    }
  }
}
