// WhatsApp webhook envelopes (platforms.md §7.7, §8.2): `object: whatsapp_business_account`,
// `entry[{id: <waba-id>, changes[{field, value}]}]`, signed by webhooks/deliver.ts. A WABA
// notifies the apps subscribed to it (POST /{waba-id}/subscribed_apps) whose app-level
// subscription (/{app-id}/subscriptions, object whatsapp_business_account) lists the field; an
// `override_callback_uri` given on the WABA subscription replaces the app's callback URL.
import type { SandboxState } from '../core/state.ts';
import { deliver } from '../webhooks/deliver.ts';
import type { PhoneNumber, Waba } from './store.ts';

export const WABA_OBJECT = 'whatsapp_business_account';

export function emit(state: SandboxState, waba: Waba, field: string, value: Record<string, unknown>): void {
  // `time`: when it happened, in seconds, as Meta's change entries carry it (§8.2).
  const notification = { object: WABA_OBJECT, entry: [{ id: waba.id, time: Math.floor(state.clock.now() / 1000), changes: [{ value, field }] }] };
  for (const sub of waba.subscriptions) {
    const app = state.findApp('facebook', sub.appId);
    const appSub = state.webhooks.subscriptions.get(`${sub.appId}:${WABA_OBJECT}`);
    if (!app?.clientSecret || !appSub?.active || !appSub.fields.includes(field)) continue;
    const target = sub.overrideCallbackUri ? { ...appSub, callbackUrl: sub.overrideCallbackUri } : appSub;
    void state.track(deliver(state, target, app.clientSecret, notification));
  }
}

/** `value.metadata` of messages and statuses: the business number, digits only. */
export function metadata(phone: PhoneNumber): Record<string, string> {
  return { display_phone_number: phone.digits, phone_number_id: phone.id };
}

export const unix = (ms: number): string => String(Math.floor(ms / 1000));
