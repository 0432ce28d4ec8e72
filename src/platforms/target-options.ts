// The options a post target carries to its platform's publisher, typed per platform (the schemas
// are in each platform's options.ts; each platform's validate.ts produces them, the delivery job reads
// them back with parseStoredOptions), and the one place that hands a target to the publisher of
// its own platform, so each publisher receives its own options type.
import type { PublishOutcome, PublishRequest } from './publishing-types.ts';
import type { PlatformAdapter } from './types.ts';

/**
 * Each post platform's options type, by platform name. Empty here: each platform's options.ts
 * adds its own (`declare module '../target-options.ts' { interface OptionsByPlatform { reddit:
 * RedditOptions } }`), so the platforms posts can target are named only in their folders.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each platform's options.ts
export interface OptionsByPlatform {}

/** The platforms posts can be published to. */
export type PostPlatform = Extract<keyof OptionsByPlatform, string>;

/** A target's validated options, discriminated by its platform. */
export type PlatformOptions = { [P in PostPlatform]: { platform: P; options: OptionsByPlatform[P] } }[PostPlatform];

/** What the publisher's options are for a platform (never for one that does not publish posts). */
export type OptionsOf<P extends string> = P extends PostPlatform ? OptionsByPlatform[P] : never;

export type PublishBase = Omit<PublishRequest<never>, 'options'>;

/** Publishes the target with its own platform's publisher; null when that platform has none. */
export function publishTarget(adapters: { readonly [P in PostPlatform]: PlatformAdapter<P> }, target: PlatformOptions, base: PublishBase): Promise<PublishOutcome> | null {
  return publishWith(adapters[target.platform], target.options, base);
}

// `target` pairs a platform with its own options, so its adapter's publisher takes them.
function publishWith<P extends PostPlatform>(adapter: PlatformAdapter<P>, options: OptionsOf<P>, base: PublishBase): Promise<PublishOutcome> | null {
  return adapter.publisher?.publish({ ...base, options }) ?? null;
}
