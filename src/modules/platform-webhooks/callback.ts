// Where Meta delivers webhooks (Pages, Instagram, Messenger, WhatsApp share one callback, and
// the Threads app's dashboard is pointed at it too) and the app secrets its signatures may be
// made with: the Meta app's, the Instagram Login app's for Instagram Login accounts (platforms.md
// §8.2), and the Threads app's for Threads notifications.
import type { Config } from '../../config.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import type { Platforms } from '../../platforms/types.ts';

export const META_WEBHOOK_PATH = '/platform-webhooks/meta';

export function metaCallbackUrl(config: Config): string {
  return `${config.publicBaseUrl}${API_PREFIX}${META_WEBHOOK_PATH}`;
}

export function metaAppSecrets({ apps }: Pick<Platforms, 'apps'>): string[] {
  return ['meta', 'instagram', 'threads'].flatMap((name) => {
    const credentials = apps[name]?.credentials;
    return credentials ? [credentials.clientSecret] : [];
  });
}

/**
 * Why an account cannot be subscribed by API although its platform sends webhooks: Threads
 * webhooks are set once per app in the App Dashboard (docs/adr/0022-threads.md).
 */
export function dashboardOnlyWebhooks(platform: string, config: Config): string | null {
  if (platform !== 'threads') return null;
  return (
    'Threads webhooks have no subscription API: they are set in the Meta App Dashboard of the Threads app ' +
    `(the Threads webhooks sub-use case, callback URL ${metaCallbackUrl(config)}, the META_WEBHOOK_VERIFY_TOKEN, fields replies and mentions); ` +
    'replies then arrive for every account that granted threads_read_replies, mentions for those that granted threads_manage_mentions'
  );
}
