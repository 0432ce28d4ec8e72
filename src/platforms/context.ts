// What adapters are built from: the one platform HTTP client (with the sandbox or
// PLATFORM_API_BASE rewrite, the platform timeout, lossless JSON), each platform app's
// credentials, and the Graph version. Built once at start, by createPlatforms (registry.ts).
import type { Config } from '../config.ts';
import { platformApiBase } from './base-url.ts';
import { PlatformError } from './errors.ts';
import { createPlatformHttp, type PlatformHttp } from './http.ts';

export interface AppCredentials {
  clientId: string;
  clientSecret: string;
}

export interface PlatformApps {
  /** The Meta app: facebook, instagram with Facebook Login, WhatsApp. */
  meta: AppCredentials | null;
  /** Instagram Login. */
  instagram: AppCredentials | null;
  threads: AppCredentials | null;
  tiktok: AppCredentials | null;
  reddit: AppCredentials | null;
}

export interface PlatformContext {
  http: PlatformHttp;
  apps: PlatformApps;
  graphVersion: string;
  /** reddit refuses generic User-Agents (platforms.md §6.2). */
  redditUserAgent: string;
  whatsappConfigId: string;
  /** Our callback for Meta webhooks and the token its handshake echoes. */
  metaWebhookVerifyToken: string;
  /** True when the sandbox stands in for every platform. */
  sandbox: boolean;
  /** How long TikTok may take to list a post it is processing (an interrupted init is looked for that long). */
  tiktokSettleMs: number;
}

export const GRAPH_VERSION = 'v24.0';

/** reddit throttles generic User-Agents (platforms.md §6.2): ours names the app unless REDDIT_USER_AGENT does. */
export const DEFAULT_REDDIT_AGENT = 'web:socialapi:v1.0.0 (by /u/socialapi)';
/** The User-Agent of every other platform call. */
const USER_AGENT = 'socialapi/1.0';

/**
 * Fixed app credentials for sandbox mode without configured ones: the sandbox accepts any client
 * id and binds the first secret it is shown, so a fixed pair presented consistently just works.
 */
export const SANDBOX_APPS: { [K in keyof PlatformApps]: AppCredentials } = {
  meta: { clientId: '100000000000001', clientSecret: 'sandbox-meta-secret' },
  instagram: { clientId: '100000000000002', clientSecret: 'sandbox-instagram-secret' },
  threads: { clientId: '100000000000003', clientSecret: 'sandbox-threads-secret' },
  tiktok: { clientId: 'sbxtiktokclientkey', clientSecret: 'sandbox-tiktok-secret' },
  reddit: { clientId: 'sandbox-reddit-client', clientSecret: 'sandbox-reddit-secret' },
};
export const SANDBOX_VERIFY_TOKEN = 'sandbox-verify-token';
export const SANDBOX_WHATSAPP_CONFIG_ID = 'sandbox-whatsapp-config';

function app(id: string | null, secret: string | null, sandbox: boolean, fallback: AppCredentials): AppCredentials | null {
  if (id && secret) return { clientId: id, clientSecret: secret };
  return sandbox ? fallback : null;
}

export type ContextConfig = Pick<Config, 'platformApiBase' | 'sandbox' | 'publicBaseUrl' | 'platforms' | 'platformTimeoutMs' | 'tiktokSettleMs'>;

export function createPlatformContext(config: ContextConfig): PlatformContext {
  const p = config.platforms;
  return {
    http: createPlatformHttp({ base: platformApiBase(config), userAgent: USER_AGENT, timeoutMs: config.platformTimeoutMs }),
    apps: {
      meta: app(p.metaAppId, p.metaAppSecret, config.sandbox, SANDBOX_APPS.meta),
      instagram: app(p.instagramAppId, p.instagramAppSecret, config.sandbox, SANDBOX_APPS.instagram),
      threads: app(p.threadsAppId, p.threadsAppSecret, config.sandbox, SANDBOX_APPS.threads),
      tiktok: app(p.tiktokClientKey, p.tiktokClientSecret, config.sandbox, SANDBOX_APPS.tiktok),
      reddit: app(p.redditClientId, p.redditClientSecret, config.sandbox, SANDBOX_APPS.reddit),
    },
    graphVersion: GRAPH_VERSION,
    redditUserAgent: p.redditUserAgent ?? DEFAULT_REDDIT_AGENT,
    whatsappConfigId: p.whatsappConfigId ?? SANDBOX_WHATSAPP_CONFIG_ID,
    metaWebhookVerifyToken: p.metaWebhookVerifyToken ?? (config.sandbox ? SANDBOX_VERIFY_TOKEN : ''),
    sandbox: config.sandbox,
    tiktokSettleMs: config.tiktokSettleMs,
  };
}

const SETTINGS: Record<keyof PlatformApps, string> = {
  meta: 'META_APP_ID and META_APP_SECRET',
  instagram: 'INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET',
  threads: 'THREADS_APP_ID and THREADS_APP_SECRET',
  tiktok: 'TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET',
  reddit: 'REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET',
};

/** The app of a platform; without one the feature is not offered here (400 not_supported). */
export function requireApp(apps: PlatformApps, name: keyof PlatformApps): AppCredentials {
  const found = apps[name];
  if (!found) throw new PlatformError('not_supported', `the ${name} app is not configured (set ${SETTINGS[name]})`, { platform: name });
  return found;
}
