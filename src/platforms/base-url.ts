// Where platform requests go. Adapters name the real URLs (https://graph.facebook.com/v24.0/me);
// with a platform API base set, https://HOST/PATH becomes BASE/HOST/PATH, the layout the sandbox
// serves. In sandbox mode without PLATFORM_API_BASE, the base is the sandbox mounted in this
// service at /sandbox. This is the only place that rewrites platform URLs.
import type { Config } from '../config.ts';

export const SANDBOX_PREFIX = '/sandbox';

/** The base every platform URL is rewritten onto, or null to call the real platforms. */
export function platformApiBase(config: Pick<Config, 'platformApiBase' | 'sandbox' | 'publicBaseUrl'>): string | null {
  if (config.platformApiBase) return config.platformApiBase;
  return config.sandbox ? `${config.publicBaseUrl}${SANDBOX_PREFIX}` : null;
}

/** True when this process should serve the sandbox itself. */
export function servesSandbox(config: Pick<Config, 'platformApiBase' | 'sandbox'>): boolean {
  return config.sandbox && !config.platformApiBase;
}

export function platformUrl(base: string | null, realUrl: string): string {
  if (!base) return realUrl;
  const url = new URL(realUrl);
  return `${base}/${url.host}${url.pathname}${url.search}`;
}
