// Where Meta delivers webhooks (Pages, Instagram, Messenger, WhatsApp share one callback) and the
// app secrets its signatures may be made with: the Meta app's, and the Instagram Login app's for
// Instagram Login accounts (platforms.md §8.2).
import type { Config } from '../../config.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import type { Platforms } from '../../platforms/types.ts';

export const META_WEBHOOK_PATH = '/platform-webhooks/meta';

export function metaCallbackUrl(config: Config): string {
  return `${config.publicBaseUrl}${API_PREFIX}${META_WEBHOOK_PATH}`;
}

export function metaAppSecrets({ apps }: Pick<Platforms, 'apps'>): string[] {
  return [apps.meta, apps.instagram, apps.threads].flatMap((app) => (app ? [app.clientSecret] : []));
}
