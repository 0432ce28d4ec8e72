// The registry: every platform's definition (its folder's index.ts), one line each. Adding a
// platform is one folder under platforms/ and one line here. createPlatforms builds every
// adapter once at start from the config with one HTTP client and hands them down as `deps.platforms`; the rest of the definitions (post options,
// validation, media rules, best-time defaults) is read from here without a platform call.
import { createPlatformContext, type ContextConfig } from './context.ts';
import { memoryCounters, type SharedCounters } from './counters.ts';
import type { PlatformDefinition, PostPublishing } from './definition.ts';
import type { AppCredentials, AppDefinition, SettingsReader } from './settings.ts';
import { blueskyPlatform } from './bluesky/index.ts';
import { facebookPlatform } from './facebook/index.ts';
import { createPlatformHttp, type PlatformHttp } from './http.ts';
import { instagramPlatform } from './instagram/index.ts';
import { linkedinPlatform } from './linkedin/index.ts';
import { pinterestPlatform } from './pinterest/index.ts';
import { redditPlatform } from './reddit/index.ts';
import type { PostPlatform } from './target-options.ts';
import { threadsPlatform } from './threads/index.ts';
import { tiktokPlatform } from './tiktok/index.ts';
import type { Platform, PlatformAdapter, Platforms } from './types.ts';
import { whatsappPlatform } from './whatsapp/index.ts';
import { xPlatform } from './x/index.ts';
import { youtubePlatform } from './youtube/index.ts';

/** Every platform's definition, one line each: the order is the order platforms are listed in (PLATFORMS). */
export const DEFINITIONS = [
  redditPlatform,
  instagramPlatform,
  facebookPlatform,
  threadsPlatform,
  tiktokPlatform,
  whatsappPlatform,
  xPlatform,
  linkedinPlatform,
  youtubePlatform,
  pinterestPlatform,
  blueskyPlatform,
] as const;

// Every platform name a folder declares has its definition here (one left out fails to compile).
const covered: Platform extends (typeof DEFINITIONS)[number]['name'] ? true : never = true;
void covered;

/** The platforms accounts can be connected on, in the order of DEFINITIONS. */
export const PLATFORMS: readonly Platform[] = DEFINITIONS.map((d) => d.name);

export const isPlatform = (name: string): name is Platform => (PLATFORMS as readonly string[]).includes(name);

/** The definitions of the platforms posts can target, with their publishing (in the order of DEFINITIONS). */
export const POST_DEFINITIONS = DEFINITIONS.filter((d): d is Extract<(typeof DEFINITIONS)[number], { publishing: object }> => d.publishing !== undefined) as unknown as ReadonlyArray<
  PlatformDefinition<PostPlatform> & { publishing: PostPublishing<unknown> }
>;

/** The definition of a stored platform name; null for a name no definition serves. */
export function definitionOf(name: string): PlatformDefinition | null {
  return DEFINITIONS.find((d) => d.name === name) ?? null;
}

/** The platforms whose comments the inbox polls (no comment webhooks), in registry order. */
export const POLLED_COMMENT_PLATFORMS: readonly Platform[] = DEFINITIONS.filter((d: PlatformDefinition) => d.pollComments).map((d) => d.name);

/** The platforms whose mentions the inbox polls (no mention webhooks), in registry order. */
export const POLLED_MENTION_PLATFORMS: readonly Platform[] = DEFINITIONS.filter((d: PlatformDefinition) => d.pollMentions).map((d) => d.name);

/** The platforms by the names people read, as a phrase: "Reddit, Instagram … and WhatsApp". */
export const PLATFORM_NAMES_PHRASE = ((names: string[]) => `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`)(DEFINITIONS.map((d: PlatformDefinition) => d.displayName));

/** Each platform's adapter members, from adapters built off line (building one makes no call) with every app present and default settings. */
function offeredCapabilities(): Map<string, readonly string[]> {
  const defaults: SettingsReader = { sandbox: true, text: () => null, flag: (_name, fallback) => fallback, integer: (_name, fallback) => fallback, origin: (_name, fallback) => fallback };
  const apps = Object.fromEntries(APPS.map((app) => [app.name, { credentials: app.sandbox, vars: '' }]));
  const ctx = { http: createPlatformHttp({ base: null, userAgent: '' }), apps, graphVersion: '', metaWebhookVerifyToken: '', sandbox: true, counters: memoryCounters() };
  return new Map(DEFINITIONS.map((d: PlatformDefinition) => [d.name, Object.keys(d.adapter(ctx, d.settings?.(defaults)))]));
}

let offered: Map<string, readonly string[]> | undefined;

/** The platforms whose adapter has a capability, in registry order. */
export function platformsWith(capability: keyof PlatformAdapter): Platform[] {
  const members = (offered ??= offeredCapabilities());
  return PLATFORMS.filter((name) => members.get(name)?.includes(capability));
}

/** The same, as a phrase for descriptions ("facebook, threads"). */
export const platformsOffering = (capability: keyof PlatformAdapter): string => platformsWith(capability).join(', ');

/** The platforms GET /inbox/comments pages through: a comment reader, and no tree read whole. */
export const inboxCommentPlatforms = (): Platform[] => platformsWith('commentReader').filter((name) => !definitionOf(name)?.commentTree);

/** Every app the definitions declare, by name. */
export const APPS: readonly AppDefinition[] = DEFINITIONS.flatMap((d: PlatformDefinition) => d.apps ?? []);

/** The credentials the sandbox takes for an app when none is configured. */
export function sandboxApp(name: string): AppCredentials {
  const app = APPS.find((a) => a.name === name);
  if (!app) throw new Error(`no platform declares the ${name} app`);
  return app.sandbox;
}

/** Watches platform calls (metrics): wraps the HTTP client before adapters use it, and each adapter. */
export interface PlatformObserver {
  http(http: PlatformHttp): PlatformHttp;
  adapter<P extends Platform>(adapter: PlatformAdapter<P>): PlatformAdapter<P>;
}

export function createPlatforms(config: ContextConfig, observer?: PlatformObserver, counters?: SharedCounters): Platforms {
  const base = createPlatformContext(config, counters);
  const ctx = observer ? { ...base, http: observer.http(base.http) } : base;
  const watch = <P extends Platform>(adapter: PlatformAdapter<P>) => (observer ? observer.adapter(adapter) : adapter);
  const adapters = Object.fromEntries(DEFINITIONS.map((d: PlatformDefinition) => [d.name, watch(d.adapter(ctx, config.platforms.settings[d.name]))])) as unknown as Platforms['adapters'];
  return {
    adapters,
    of: (name) => (isPlatform(name) ? adapters[name] : null),
    apps: ctx.apps,
    metaWebhookVerifyToken: ctx.metaWebhookVerifyToken,
  };
}
