// Seeding WhatsApp business accounts and phone numbers (issue 3 control API). The default seed
// gives the default Facebook user one WABA with one number, verified but not yet registered for
// the Cloud API: the service's onboarding calls POST /{phone-number-id}/register (§7.3).
import type { SandboxState } from '../core/state.ts';
import { digitsOf, displayOf, type LimitTier, type PhoneNumber, type QualityRating, type Waba } from './store.ts';

export interface PhoneNumberInput {
  phoneNumber?: string | undefined;
  verifiedName?: string | undefined;
  qualityRating?: QualityRating | undefined;
  messagingLimitTier?: LimitTier | undefined;
  registered?: boolean | undefined;
  /** A test number: sends only to `allowedRecipients` (error 131030 otherwise). */
  testNumber?: boolean | undefined;
  allowedRecipients?: string[] | undefined;
}

export interface WabaInput {
  /** The owning Facebook user; default: the first one. */
  ownerUserId?: string | undefined;
  name?: string | undefined;
  currency?: string | undefined;
  phoneNumbers?: PhoneNumberInput[] | undefined;
}

export function addWhatsAppBusiness(state: SandboxState, input: WabaInput = {}): { waba: Waba; phoneNumbers: PhoneNumber[] } {
  const owner = input.ownerUserId ?? [...state.people.facebookUsers.keys()][0];
  if (!owner || !state.people.facebookUsers.has(owner)) throw new Error('ownerUserId: no such Facebook user');
  const store = state.whatsapp;
  const waba: Waba = {
    id: state.ids.numeric('wa-waba', '2', 15),
    name: input.name ?? `Sandbox WhatsApp Business ${store.wabas.size + 1}`,
    ownerUserId: owner,
    currency: input.currency ?? 'USD',
    timezoneId: '1',
    namespace: state.ids.opaque('wa-namespace', 36, 'hex'),
    restriction: null,
    phoneNumberIds: [],
    subscriptions: [],
  };
  store.wabas.set(waba.id, waba);
  const phoneNumbers = (input.phoneNumbers ?? [{}]).map((p) => addPhoneNumber(state, waba.id, p));
  return { waba, phoneNumbers };
}

export function addPhoneNumber(state: SandboxState, wabaId: string, input: PhoneNumberInput = {}): PhoneNumber {
  const store = state.whatsapp;
  const waba = store.wabas.get(wabaId);
  if (!waba) throw new Error('wabaId: no such WhatsApp Business Account');
  const n = store.phoneNumbers.size + 1;
  const digits = digitsOf(input.phoneNumber ?? `1555010${String(n).padStart(4, '0')}`);
  if ([...store.phoneNumbers.values()].some((p) => p.digits === digits)) throw new Error(`phoneNumber: ${digits} exists already`);
  const test = input.testNumber ?? false;
  const number: PhoneNumber = {
    id: state.ids.numeric('wa-phone', '3', 15),
    wabaId,
    digits,
    displayPhoneNumber: displayOf(digits),
    verifiedName: input.verifiedName ?? (test ? 'Test Number' : waba.name),
    qualityRating: input.qualityRating ?? 'GREEN',
    messagingLimitTier: input.messagingLimitTier ?? (test ? 'TIER_50' : 'TIER_1K'),
    codeVerificationStatus: 'VERIFIED',
    nameStatus: test ? 'AVAILABLE_WITHOUT_REVIEW' : 'APPROVED',
    registered: input.registered ?? test,
    pin: null,
    testNumber: test,
    allowedRecipients: (input.allowedRecipients ?? []).map(digitsOf),
  };
  if (number.allowedRecipients.length > 5) throw new Error('allowedRecipients: a test number allows at most 5 recipients');
  store.phoneNumbers.set(number.id, number);
  waba.phoneNumberIds.push(number.id);
  return number;
}

export function seedWhatsApp(state: SandboxState): void {
  const owner = [...state.people.facebookUsers.keys()][0];
  if (owner) addWhatsAppBusiness(state, { ownerUserId: owner, name: 'Sandbox Bakery', phoneNumbers: [{ verifiedName: 'Sandbox Bakery' }] });
}
