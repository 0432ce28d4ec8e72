// A platform's definition: everything the service knows about one platform, exported by its
// folder's index.ts and listed once in registry.ts (docs/adding-a-platform.md). The adapter
// (connect, publish, comments, insights …) is built from the shared context and the platform's
// own settings at start; the rest is static knowledge the API reads without a platform call: its
// names, apps and settings, how posts to it are described, validated and media-checked
// (`publishing`, absent for a platform posts cannot target) and its best-time defaults.
import type { TObject, TSchema } from 'typebox';
import type { PlatformContext } from './context.ts';
import type { OptionsOf } from './target-options.ts';
import type { AppDefinition, SettingsReader } from './settings.ts';
import type { Platform, PlatformAdapter } from './types.ts';
import type { TargetInput, Validated } from './validate-fields.ts';

export type MediaKind = 'image' | 'video';

/** One media URL of a target's options, as the media check fetches it. */
export interface MediaItem {
  /** How the URL is named in messages (`mediaUrls[1]`). */
  field: string;
  url: string;
  /** The kind this place needs, when it needs one. */
  kind: MediaKind | null;
  /** Narrower types than the platform's (instagram cover: JPEG). */
  only?: string[];
}

/** What a platform takes, by the type read from the file, and where its options name media. */
export interface MediaRules {
  image: readonly string[];
  video: readonly string[];
  /** The accepted types in words, for the message that refuses a file. */
  label: string;
  /** The media URLs of a target's validated options, with the kind each place needs. */
  items(options: Record<string, unknown>): MediaItem[];
}

/** How posts to the platform are described, validated and checked. */
export interface PostPublishing<O> {
  /** platformSpecificData as a client sends it (the OpenAPI description; its keys are the platform's own). */
  data: TObject;
  /** The validated options, as stored per target and read back for the publisher. */
  options: TSchema;
  /** Format rules always, live rules when `input.live`: the options and the skipped keys, or a 400 naming the field. */
  validate(input: TargetInput): Validated<O>;
  /** Absent: the options name no media (reddit links are not fetched). */
  media?: MediaRules;
}

/**
 * A read of the account's own things on the platform that only some platforms have (pinterest
 * boards), served live at `GET /accounts/{id}/{name}`; the adapter's `accountResources[name]`
 * reads it.
 */
export interface AccountResource {
  /** The path segment after /accounts/{id}/ (lower case, dashes), also the adapter's key. */
  name: string;
  /** The operation's summary in the API document. */
  summary: string;
  /** The schema of the 200 answer. */
  response: TObject;
}

/** A best-time slot: weekday (0 = Monday), UTC hour and a relative weight. */
export type BestTimeSlot = readonly [weekday: number, hour: number, weight: number];

export interface PlatformDefinition<P extends Platform = Platform, S = unknown> {
  name: P;
  /** How people read its name ("TikTok", "WhatsApp"): in descriptions, pages and messages. */
  displayName: string;
  /** The apps it connects through, with their variables (an app several platforms share is declared by one of them). */
  apps?: readonly AppDefinition[];
  /** Its own settings, read from the environment at start; handed to `adapter`. */
  settings?(read: SettingsReader): S;
  /** The adapter, built once at start with the shared HTTP client, the platform apps and its settings. */
  adapter(ctx: PlatformContext, settings: S): PlatformAdapter<P>;
  /** Absent: accounts of the platform cannot be a post's target. */
  publishing?: PostPublishing<OptionsOf<P>>;
  /**
   * The platform sends no comment webhooks: the inbox polls the comments of its published posts
   * for 7 days through the adapter's commentReader, and each new one emits comment.received.
   */
  pollComments?: true;
  /**
   * The platform sends no mention webhooks: the inbox polls the mentions of each of its active
   * accounts through the adapter's mentionReader, and each new one emits mention.received.
   */
  pollMentions?: true;
  /**
   * Its comments are one tree read whole (reddit): GET /posts/{id}/comments lists them, and
   * GET /inbox/comments, which pages through a post's comments, does not.
   */
  commentTree?: true;
  /** Account-scoped reads it offers beyond the shared ones (each needs its reader in the adapter's accountResources). */
  accountResources?: readonly AccountResource[];
  /** The slots best time falls back to without data of the account's own; absent: the shared weekday afternoons. */
  bestTime?: readonly BestTimeSlot[];
}
