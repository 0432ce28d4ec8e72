// WhatsApp records as the API shows them (contract "WhatsApp"; DESIGN "WhatsApp"): the number,
// message templates and media. Values the Cloud API names (quality ratings, tiers, template
// statuses and categories) are passed through in its words.
import { Type, type Static } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const PhoneNumber = Type.Object(
  {
    accountId: Type.String(),
    phoneNumberId: Type.String({ description: "The Cloud API's phone number id." }),
    wabaId: NullableString('The WhatsApp Business Account the number belongs to.'),
    displayPhoneNumber: NullableString('The number as WhatsApp shows it (+1 555-010-0001).'),
    verifiedName: NullableString('The business name shown to people.'),
    qualityRating: NullableString('GREEN, YELLOW, RED or UNKNOWN.'),
    messagingLimit: NullableString('Business-initiated conversations per 24 hours: TIER_50, TIER_250, TIER_1K, TIER_10K, TIER_100K, TIER_UNLIMITED.'),
    onboarding: Type.Object({
      registered: Type.Boolean({ description: 'Registered for the Cloud API (POST /whatsapp/accounts/{id}/register).' }),
      status: NullableString('CONNECTED, PENDING, FLAGGED, RESTRICTED, DISCONNECTED …'),
      codeVerificationStatus: NullableString('VERIFIED, NOT_VERIFIED, EXPIRED.'),
      nameStatus: NullableString('Display name review: APPROVED, PENDING_REVIEW, DECLINED …'),
      platformType: NullableString('CLOUD_API once registered; NOT_APPLICABLE before.'),
      accountMode: NullableString('LIVE, or SANDBOX for a test number.'),
    }),
    refreshedAt: Timestamp('When the record was read from WhatsApp.'),
  },
  { $id: 'WhatsAppPhoneNumber', title: 'WhatsAppPhoneNumber' },
);
export type PhoneNumberView = Static<typeof PhoneNumber>;

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

export const Template = Type.Object(
  {
    id: Type.String({ description: "The Cloud API's template id (one per name and language)." }),
    name: Type.String(),
    language: Type.String({ description: 'en_US …' }),
    category: Type.String({ description: 'MARKETING, UTILITY or AUTHENTICATION.' }),
    status: Type.String({ description: 'PENDING, APPROVED, REJECTED, PAUSED, DISABLED …' }),
    components: Type.Array(Type.Unknown(), { description: "The components in the Cloud API's shape." }),
    parameterFormat: NullableString('POSITIONAL or NAMED.'),
    qualityScore: NullableString('GREEN, YELLOW, RED or UNKNOWN.'),
    rejectedReason: NullableString('Why review rejected it; NONE otherwise.'),
    previousCategory: NullableString('The category before WhatsApp changed it.'),
  },
  { $id: 'WhatsAppTemplate', title: 'WhatsAppTemplate' },
);
export type TemplateView = Static<typeof Template>;

export const Media = Type.Object(
  {
    whatsappMediaId: Type.String(),
    mimeType: NullableString('The type WhatsApp stored.'),
    sha256: NullableString('SHA-256 of the bytes, hex.'),
    fileSize: Type.Union([Type.Integer(), Type.Null()], { description: 'Bytes.' }),
  },
  { $id: 'WhatsAppMedia', title: 'WhatsAppMedia' },
);
export type MediaView = Static<typeof Media>;

export const AccountParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The WhatsApp account.' }) });
// Platform ids are digits; another id is unknown (404, checked by the routes), never sent to WhatsApp.
const PlatformId = (name: string) => Type.String({ minLength: 1, maxLength: 64, description: name });
export const isPlatformId = (id: string): boolean => /^[0-9]{1,64}$/.test(id);
export const TemplateParams = Type.Object({ id: AccountParams.properties.id, templateId: PlatformId("The Cloud API's template id.") });
export const MediaParams = Type.Object({ id: AccountParams.properties.id, waMediaId: PlatformId('The WhatsApp media id.') });
export const Ok = Type.Object({ ok: Type.Literal(true) });
export const Flag = (description: string) => Type.Optional(Type.String({ enum: ['0', '1', 'true', 'false'], description }));
