// Each platform's validator (its definition's publishing.validate, src/platforms/<platform>/
// validate.ts), and the warnings no single platform can give: a key that belongs to another
// platform, or to none. Those keys are skipped (never sent) and reported on the target as
// `warnings`. The result carries the platform with its typed options (the schemas and types are
// in src/platforms/<platform>/options.ts); `options` is what is stored per target.
import { Value } from 'typebox/value';
import { POST_DEFINITIONS } from '../../../platforms/registry.ts';
import type { PlatformOptions, PostPlatform } from '../../../platforms/target-options.ts';
import type { TargetInput, Warning } from '../../../platforms/validate-fields.ts';

export type { TargetInput, Warning } from '../../../platforms/validate-fields.ts';

export type { PlatformOptions, PostPlatform } from '../../../platforms/target-options.ts';

/** The platform, its options as stored and read by the publisher, and the keys skipped. */
export type TargetResult = PlatformOptions & { warnings: Warning[] };

/** Each post platform's own platformSpecificData keys, in the registry's order. */
const KEYS: ReadonlyArray<readonly [PostPlatform, readonly string[]]> = POST_DEFINITIONS.map((d) => [d.name, Object.keys(d.publishing.data.properties)]);

/** Platforms posts can target (accounts of other platforms, e.g. whatsapp, cannot be). */
export const POSTABLE_PLATFORMS: readonly string[] = POST_DEFINITIONS.map((d) => d.name);

export const isPostPlatform = (platform: string): platform is PostPlatform => POSTABLE_PLATFORMS.includes(platform);

const publishingOf = (platform: PostPlatform) => {
  const definition = POST_DEFINITIONS.find((d) => d.name === platform);
  if (!definition) throw new Error(`no publishing definition for ${platform}`);
  return definition.publishing;
};

export function validateTarget(platform: PostPlatform, input: TargetInput): TargetResult {
  const own = new Set(KEYS.find(([name]) => name === platform)?.[1]);
  const foreign: Warning[] = [];
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.data)) {
    if (own.has(key)) {
      data[key] = value;
      continue;
    }
    const owners = KEYS.filter(([, keys]) => keys.includes(key)).map(([name]) => name);
    foreign.push({ key, message: owners.length ? `applies to ${owners.join(', ')}, not ${platform}; skipped` : `unknown key for ${platform}; skipped` });
  }
  const result = publishingOf(platform).validate({ ...input, data });
  // The definition's validator gives the options of its own platform.
  return { platform, options: result.options, warnings: [...foreign, ...result.warnings] } as TargetResult;
}

/**
 * A target's stored options (post_targets.options, JSON) read back as the typed value, for the
 * delivery job to hand its publisher; null when they do not match the platform's options schema
 * (the row was written by a version whose options had another shape).
 */
export function parseStoredOptions(platform: string, json: string): PlatformOptions | null {
  if (!isPostPlatform(platform)) return null;
  const options: unknown = JSON.parse(json);
  // Checked against the platform's own options schema, so the options are that platform's.
  return Value.Check(publishingOf(platform).options, options) ? ({ platform, options } as PlatformOptions) : null;
}
