// WhatsApp Cloud API state (platforms.md §7): business accounts (WABA), their phone numbers,
// the people who message them (with the 24-hour customer-service window), sent and received
// messages, uploaded media and message templates.
export type QualityRating = 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
export type LimitTier = 'TIER_50' | 'TIER_250' | 'TIER_1K' | 'TIER_10K' | 'TIER_100K' | 'TIER_UNLIMITED';
export type TemplateCategory = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
export type TemplateStatus = 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED' | 'IN_APPEAL' | 'PENDING_DELETION' | 'DELETED';
export type MessageStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';

export interface WabaSubscription {
  appId: string;
  overrideCallbackUri: string | null;
  verifyToken: string | null;
}

export interface Waba {
  id: string;
  name: string;
  /** The Facebook user who owns it: their tokens reach it (granular scope target_ids). */
  ownerUserId: string;
  currency: string;
  timezoneId: string;
  namespace: string;
  /** `restricted`: business-initiated sends refused (368); `locked`: every send refused (131031). */
  restriction: null | 'restricted' | 'locked';
  phoneNumberIds: string[];
  subscriptions: WabaSubscription[];
}

export interface PhoneNumber {
  id: string;
  wabaId: string;
  /** Digits only, with country code (`15550100001`). */
  digits: string;
  displayPhoneNumber: string;
  verifiedName: string;
  qualityRating: QualityRating;
  messagingLimitTier: LimitTier;
  codeVerificationStatus: 'VERIFIED' | 'NOT_VERIFIED' | 'EXPIRED';
  nameStatus: 'APPROVED' | 'AVAILABLE_WITHOUT_REVIEW' | 'DECLINED' | 'PENDING_REVIEW' | 'NONE';
  registered: boolean;
  pin: string | null;
  /** A test number (account_mode SANDBOX) sends only to `allowedRecipients` (131030). */
  testNumber: boolean;
  allowedRecipients: string[];
}

/** A WhatsApp user the businesses talk with. */
export interface WhatsAppPerson {
  waId: string;
  name: string;
  /** false: sends to them fail with 131026 (not on WhatsApp). */
  onWhatsApp: boolean;
  /** They stopped marketing messages (131050). */
  marketingOptOut: boolean;
}

export interface WhatsAppMessage {
  id: string;
  phoneNumberId: string;
  direction: 'out' | 'in';
  /** The person's wa_id. */
  waId: string;
  type: string;
  /** Outbound: service (free-form), or the template's category in lower case. */
  category: 'service' | 'marketing' | 'utility' | 'authentication';
  status: MessageStatus;
  at: number;
  conversationId: string | null;
  /** Inbound messages the business has marked read. */
  readByBusiness: boolean;
}

export interface WhatsAppMedia {
  id: string;
  /** The phone number that uploaded it (or received it). */
  phoneNumberId: string;
  mimeType: string;
  sha256: string;
  bytes: Buffer;
  filename: string | null;
  createdAt: number;
  deleted: boolean;
}

export interface TemplateComponent {
  type: string;
  [key: string]: unknown;
}

export interface MessageTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  previousCategory: TemplateCategory | null;
  status: TemplateStatus;
  rejectedReason: string;
  components: TemplateComponent[];
  parameterFormat: 'POSITIONAL' | 'NAMED';
  qualityScore: QualityRating;
  createdAt: number;
}

export class WhatsAppStore {
  readonly wabas = new Map<string, Waba>();
  readonly phoneNumbers = new Map<string, PhoneNumber>();
  readonly people = new Map<string, WhatsAppPerson>();
  readonly messages = new Map<string, WhatsAppMessage>();
  readonly media = new Map<string, WhatsAppMedia>();
  readonly templates = new Map<string, MessageTemplate>();
  /** Last inbound message time per `{phone-number-id}:{wa_id}`: the customer-service window. */
  readonly lastInbound = new Map<string, number>();
  /** Marketing templates delivered per person, for the frequency cap (131049). */
  readonly marketingSends: Array<{ waId: string; at: number }> = [];
  /** Open conversations (pricing) per `{phone}:{wa_id}:{category}`: id and expiry. */
  readonly conversations = new Map<string, { id: string; expiresAt: number; origin: string }>();

  person(waId: string): WhatsAppPerson {
    let person = this.people.get(waId);
    if (!person) {
      person = { waId, name: `WhatsApp User ${waId.slice(-4)}`, onWhatsApp: true, marketingOptOut: false };
      this.people.set(waId, person);
    }
    return person;
  }

  windowOpen(phoneNumberId: string, waId: string, now: number): boolean {
    const last = this.lastInbound.get(`${phoneNumberId}:${waId}`);
    return last !== undefined && now - last < 86_400_000;
  }

  wabasOf(userId: string): Waba[] {
    return [...this.wabas.values()].filter((w) => w.ownerUserId === userId);
  }
}

/** wa_ids and `to` values are digits only: `+1 (650) 555-1234` → `16505551234`. */
export const digitsOf = (phone: string): string => phone.replace(/\D/g, '');

/** `15550100001` → `+1 555-010-0001` (the shape of display_phone_number for NANP numbers). */
export function displayOf(digits: string): string {
  const m = /^1(\d{3})(\d{3})(\d{4})$/.exec(digits);
  return m ? `+1 ${m[1]}-${m[2]}-${m[3]}` : `+${digits}`;
}

/** A JSON scalar as text ('' for objects and absent values): request bodies are untrusted. */
export const asText = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
