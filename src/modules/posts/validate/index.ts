// One validator per platform, and the warnings no single platform can give: a key that belongs
// to another platform, or to none. Those keys are skipped (never sent) and reported on the
// target as `warnings`.
import { POST_PLATFORMS } from '../schemas.ts';
import type { PlatformValidator, TargetInput, TargetResult, Warning } from './common.ts';
import { FACEBOOK_KEYS, validateFacebook } from './facebook.ts';
import { INSTAGRAM_KEYS, validateInstagram } from './instagram.ts';
import { REDDIT_KEYS, validateReddit } from './reddit.ts';
import { THREADS_KEYS, validateThreads } from './threads.ts';
import { TIKTOK_KEYS, validateTiktok } from './tiktok.ts';

export type { TargetResult, Warning } from './common.ts';

type PostPlatform = (typeof POST_PLATFORMS)[number];

const PLATFORMS: Record<PostPlatform, { keys: readonly string[]; validate: PlatformValidator }> = {
  reddit: { keys: REDDIT_KEYS, validate: validateReddit },
  instagram: { keys: INSTAGRAM_KEYS, validate: validateInstagram },
  facebook: { keys: FACEBOOK_KEYS, validate: validateFacebook },
  threads: { keys: THREADS_KEYS, validate: validateThreads },
  tiktok: { keys: TIKTOK_KEYS, validate: validateTiktok },
};

/** Platforms posts can target (accounts of other platforms, e.g. whatsapp, cannot be). */
export const POSTABLE_PLATFORMS: readonly string[] = POST_PLATFORMS;

const isPostPlatform = (platform: string): platform is PostPlatform => POSTABLE_PLATFORMS.includes(platform);

export function validateTarget(platform: string, input: TargetInput): TargetResult {
  const entry = isPostPlatform(platform) ? PLATFORMS[platform] : undefined;
  if (!entry) return { options: {}, warnings: [] };
  const own = new Set(entry.keys);
  const foreign: Warning[] = [];
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.data)) {
    if (own.has(key)) {
      data[key] = value;
      continue;
    }
    const owners = Object.entries(PLATFORMS)
      .filter(([, p]) => p.keys.includes(key))
      .map(([name]) => name);
    foreign.push({ key, message: owners.length ? `applies to ${owners.join(', ')}, not ${platform}; skipped` : `unknown key for ${platform}; skipped` });
  }
  const result = entry.validate({ ...input, data });
  return { options: result.options, warnings: [...foreign, ...result.warnings] };
}
