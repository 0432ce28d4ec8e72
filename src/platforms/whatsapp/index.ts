// whatsapp (platforms.md §7.3–7.4, §1.5): Embedded Signup is the Facebook Login dialog with the
// configured `config_id`; its token's debug_token lists the WhatsApp Business Accounts it was
// granted (granular scopes), whose phone numbers are what gets connected, one account per number.
// An existing token (POST /whatsapp/connect) is checked against the number and its account the
// same way. Numbers keep the (60-day) user token; WABA webhooks go through subscribed_apps.
// The number's record, templates and media are the `whatsapp` capability (capability.ts).
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { debugToken, FACEBOOK_GRAPH, facebookUserToken, graph, type DebugToken } from '../meta/graph.ts';
import { list, obj, str } from '../json.ts';
import { ensureAppSubscription, subscribeObject } from '../meta/subscriptions.ts';
import { deleteMedia, downloadMedia, mediaInfo, uploadMedia } from './media.ts';
import { markWhatsAppRead, sendWhatsAppMessage } from './messages.ts';
import { readPhoneNumber, registerPhoneNumber } from './phone-number.ts';
import { createTemplate, deleteTemplate, getTemplate, listTemplates } from './templates.ts';
import { metaString, type ConnectedAccount, type ConnectOption, type PlatformAdapter, type TokenSet } from '../types.ts';
import type { PlatformDefinition } from '../definition.ts';

export const WHATSAPP_FEATURES: Record<string, string[]> = {
  messages: ['whatsapp_business_messaging'],
  templates: ['whatsapp_business_management'],
  numbers: ['whatsapp_business_management'],
};

const WABA_WEBHOOK_FIELDS = ['messages', 'message_template_status_update', 'message_template_quality_update', 'template_category_update', 'phone_number_quality_update', 'account_update'];

export interface PhoneNumberInfo {
  id: string;
  wabaId: string;
  displayPhoneNumber: string | null;
  verifiedName: string | null;
}

/** The WABAs a token was granted on (granular scopes), or every WABA it can manage when none are listed. */
function grantedWabas(inspection: DebugToken): string[] {
  const ids = inspection.granular.filter((g) => g.scope.startsWith('whatsapp_business_')).flatMap((g) => g.targetIds);
  return [...new Set(ids)];
}

export async function phoneNumbersOf(ctx: PlatformContext, token: string, wabaId: string): Promise<PhoneNumberInfo[]> {
  const body = await graph(ctx, 'whatsapp', {
    url: `${FACEBOOK_GRAPH}/${ctx.graphVersion}/${wabaId}/phone_numbers`,
    query: { fields: 'id,display_phone_number,verified_name', limit: 100, access_token: token },
  });
  return list(body.data).map((item) => {
    const p = obj(item);
    return { id: str(p.id) ?? '', wabaId, displayPhoneNumber: str(p.display_phone_number), verifiedName: str(p.verified_name) };
  });
}

export function accountOf(phone: PhoneNumberInfo, token: TokenSet): ConnectedAccount {
  return {
    profile: { platformUserId: phone.id, username: phone.displayPhoneNumber, displayName: phone.verifiedName, avatarUrl: null, metadata: { wabaId: phone.wabaId } },
    token,
  };
}

/** Every number of every WABA the token was granted on. */
async function grantedNumbers(ctx: PlatformContext, token: string): Promise<{ inspection: DebugToken; numbers: PhoneNumberInfo[] }> {
  const inspection = await debugToken(ctx, requireApp(ctx.apps, 'meta'), 'whatsapp', token);
  const numbers: PhoneNumberInfo[] = [];
  for (const wabaId of grantedWabas(inspection)) numbers.push(...(await phoneNumbersOf(ctx, token, wabaId)));
  return { inspection, numbers };
}

/**
 * Checks an existing token against a number and its business account: valid, granted on the
 * WABA (when the token lists its WABAs), and the number belongs to that WABA.
 */
async function checkExistingToken(ctx: PlatformContext, { accessToken, wabaId, phoneNumberId }: { accessToken: string; wabaId: string; phoneNumberId: string }): Promise<ConnectedAccount> {
  const inspection = await debugToken(ctx, requireApp(ctx.apps, 'meta'), 'whatsapp', accessToken);
  if (!inspection.valid) throw new PlatformError('invalid', 'accessToken: the token is not valid (expired or revoked)', { platform: 'whatsapp' });
  const wabas = grantedWabas(inspection);
  if (wabas.length && !wabas.includes(wabaId)) throw new PlatformError('invalid', `wabaId: the token was not granted on business account ${wabaId}`, { platform: 'whatsapp' });
  const phone = (await phoneNumbersOf(ctx, accessToken, wabaId)).find((p) => p.id === phoneNumberId);
  if (!phone) throw new PlatformError('invalid', `phoneNumberId: ${phoneNumberId} is not a number of business account ${wabaId}`, { platform: 'whatsapp' });
  return accountOf(phone, { accessToken, refreshToken: null, expiresAt: inspection.expiresAt, scopes: inspection.scopes });
}

export interface WhatsAppSettings {
  /** The Embedded Signup configuration the dialog opens with (WHATSAPP_CONFIG_ID). */
  configId: string;
}

export const SANDBOX_WHATSAPP_CONFIG_ID = 'sandbox-whatsapp-config';

export function whatsappAdapter(ctx: PlatformContext, settings: WhatsAppSettings): PlatformAdapter<'whatsapp'> {
  return {
    platform: 'whatsapp',
    connectors: [
      {
        flavour: 'embedded_signup',
        authorizeUrl({ state, redirectUri }) {
          const app = requireApp(ctx.apps, 'meta');
          const url = new URL(`https://www.facebook.com/${ctx.graphVersion}/dialog/oauth`);
          url.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: redirectUri, state, config_id: settings.configId, response_type: 'code', override_default_response_type: 'true' }).toString();
          return ctx.http.browserUrl(url.toString());
        },
        // The service's embedded signup page: what GET /connect/whatsapp answers, leading to the dialog.
        landing: {
          title: 'Connect your WhatsApp Business number',
          intro: ['Log in with Facebook, choose or create your WhatsApp Business Account and phone number, and come back here.'],
          button: 'Continue with Facebook',
        },
        async complete({ code, redirectUri, now }) {
          const userToken = await facebookUserToken(ctx, requireApp(ctx.apps, 'meta'), 'whatsapp', code, redirectUri, now);
          const { numbers } = await grantedNumbers(ctx, userToken.accessToken);
          const options: ConnectOption[] = numbers.map((n) => ({ id: n.id, name: n.verifiedName ?? n.displayPhoneNumber ?? n.id, kind: 'phone_number', username: n.displayPhoneNumber }));
          return { kind: 'choices', userToken, options };
        },
      },
    ],
    choices: {
      async resolve({ userToken, optionIds }) {
        const { inspection, numbers } = await grantedNumbers(ctx, userToken);
        return optionIds.map((id) => {
          const phone = numbers.find((n) => n.id === id);
          if (!phone) throw new PlatformError('permission', `the number ${id} is no longer granted to the app`, { platform: 'whatsapp' });
          return accountOf(phone, { accessToken: userToken, refreshToken: null, expiresAt: inspection.expiresAt, scopes: inspection.scopes });
        });
      },
    },
    health: {
      inspect: (credentials) => debugToken(ctx, requireApp(ctx.apps, 'meta'), 'whatsapp', credentials.accessToken),
      features: () => WHATSAPP_FEATURES,
    },
    webhooks: {
      async subscribe(credentials, callback) {
        const updated = await ensureAppSubscription(ctx, 'whatsapp', requireApp(ctx.apps, 'meta'), 'whatsapp_business_account', WABA_WEBHOOK_FIELDS, callback);
        await subscribeObject(ctx, 'whatsapp', FACEBOOK_GRAPH, metaString(credentials.metadata, 'wabaId'), credentials.accessToken, null);
        return { fields: WABA_WEBHOOK_FIELDS, appSubscriptionUpdated: updated };
      },
    },
    numbers: {
      checkToken: (input) => checkExistingToken(ctx, input),
      register: ({ accessToken, phoneNumberId, pin }) => registerPhoneNumber(ctx, accessToken, phoneNumberId, pin),
    },
    whatsapp: {
      phoneNumber: (credentials) => readPhoneNumber(ctx, credentials),
      register: (credentials, pin) => registerPhoneNumber(ctx, credentials.accessToken, credentials.platformUserId, pin),
      listTemplates: (credentials, filter) => listTemplates(ctx, credentials, filter),
      createTemplate: (credentials, template) => createTemplate(ctx, credentials, template),
      getTemplate: (credentials, id) => getTemplate(ctx, credentials, id),
      deleteTemplate: (credentials, input) => deleteTemplate(ctx, credentials, input),
      uploadMedia: (credentials, media) => uploadMedia(ctx, credentials, media),
      mediaInfo: (credentials, id) => mediaInfo(ctx, credentials, id),
      downloadMedia: (credentials, url) => downloadMedia(ctx, credentials, url),
      deleteMedia: (credentials, id) => deleteMedia(ctx, credentials, id),
      sendMessage: (credentials, message) => sendWhatsAppMessage(ctx, credentials, message),
      markRead: (credentials, messageId, typing) => markWhatsAppRead(ctx, credentials, messageId, typing),
    },
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    whatsapp: true;
  }
}

/** Everything the service knows about whatsapp (listed in ../registry.ts): no post publishing, messages only. */
export const whatsappPlatform: PlatformDefinition<'whatsapp', WhatsAppSettings> = {
  name: 'whatsapp',
  displayName: 'WhatsApp',
  // Embedded Signup's configuration (Meta app dashboard → Facebook Login for Business).
  settings: (read) => ({ configId: read.text('WHATSAPP_CONFIG_ID') ?? SANDBOX_WHATSAPP_CONFIG_ID }),
  adapter: whatsappAdapter,
};
