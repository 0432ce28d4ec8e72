// What adapters are built from: the one platform HTTP client (with the sandbox or
// PLATFORM_API_BASE rewrite, the platform timeout, lossless JSON), each platform app's
// credentials, and the Graph version. Built once at start, by createPlatforms (registry.ts).
import type { Config } from '../config.ts';
import { platformApiBase } from './base-url.ts';
import { memoryCounters, type SharedCounters } from './counters.ts';
import { PlatformError } from './errors.ts';
import { createPlatformHttp, type PlatformHttp } from './http.ts';
import { createMediaFetcher, type MediaFetcher } from './media-bytes.ts';
import type { AppCredentials, ConfiguredApp } from './settings.ts';

export type { AppCredentials } from './settings.ts';

/** Every declared app by name (registry.ts collects them from the definitions). */
export type PlatformApps = Readonly<Record<string, ConfiguredApp>>;

export interface PlatformContext {
  http: PlatformHttp;
  apps: PlatformApps;
  graphVersion: string;
  /** Our callback for Meta webhooks and the token its handshake echoes. */
  metaWebhookVerifyToken: string;
  /** True when the sandbox stands in for every platform. */
  sandbox: boolean;
  /** The bytes of a post's media URLs, for publishers that upload them (absent: the adapter is built without it, as in some tests). */
  media?: MediaFetcher;
  /** Counters every process shares, for a platform's per-project quota (in the store; in memory without one). */
  counters: SharedCounters;
}

export const GRAPH_VERSION = 'v24.0';

/** The User-Agent of every platform call, unless an adapter sends its own (reddit). */
const USER_AGENT = 'socialapi/1.0';

export const SANDBOX_VERIFY_TOKEN = 'sandbox-verify-token';

export type ContextConfig = Pick<Config, 'platformApiBase' | 'sandbox' | 'publicBaseUrl' | 'platforms' | 'platformTimeoutMs'> & Partial<Pick<Config, 'allowPrivateUrls' | 'mediaMaxBytes'>>;

export function createPlatformContext(config: ContextConfig, counters: SharedCounters = memoryCounters()): PlatformContext {
  return {
    http: createPlatformHttp({ base: platformApiBase(config), userAgent: USER_AGENT, timeoutMs: config.platformTimeoutMs, allowPrivate: config.allowPrivateUrls ?? config.sandbox }),
    apps: config.platforms.apps,
    graphVersion: GRAPH_VERSION,
    metaWebhookVerifyToken: config.platforms.metaWebhookVerifyToken ?? (config.sandbox ? SANDBOX_VERIFY_TOKEN : ''),
    sandbox: config.sandbox,
    media: createMediaFetcher({ allowPrivate: config.allowPrivateUrls ?? config.sandbox, maxBytes: config.mediaMaxBytes ?? 1024 ** 3 }),
    counters,
  };
}

/** The app's credentials; without them the feature is not offered here (400 not_supported, naming the variables). */
export function requireApp(apps: PlatformApps, name: string): AppCredentials {
  const app = apps[name];
  if (!app?.credentials) throw new PlatformError('not_supported', `the ${name} app is not configured (set ${app?.vars ?? 'its credentials'})`, { platform: name });
  return app.credentials;
}

/** Whether the app is configured here (or stood in for by the sandbox). */
export const hasApp = (apps: PlatformApps, name: string): boolean => apps[name]?.credentials != null;
