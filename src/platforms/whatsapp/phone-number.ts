// The connected number (platforms.md §7.3): its record with the onboarding fields, and
// registration for the Cloud API with the two-step PIN.
import type { PlatformContext } from '../context.ts';
import { str } from '../json.ts';
import type { AccountCredentials } from '../types.ts';
import type { WhatsAppPhoneNumber } from './capability.ts';
import { cloudCaller } from './cloud.ts';

const FIELDS = [
  'id',
  'display_phone_number',
  'verified_name',
  'quality_rating',
  'messaging_limit_tier',
  'code_verification_status',
  'name_status',
  'status',
  'platform_type',
  'account_mode',
].join(',');

export async function readPhoneNumber(ctx: PlatformContext, credentials: AccountCredentials): Promise<WhatsAppPhoneNumber> {
  const body = await cloudCaller(ctx, credentials.accessToken)('GET', `/${credentials.platformUserId}`, { query: { fields: FIELDS } });
  return {
    id: str(body.id) ?? credentials.platformUserId,
    displayPhoneNumber: str(body.display_phone_number),
    verifiedName: str(body.verified_name),
    qualityRating: str(body.quality_rating),
    messagingLimitTier: str(body.messaging_limit_tier),
    codeVerificationStatus: str(body.code_verification_status),
    nameStatus: str(body.name_status),
    status: str(body.status),
    platformType: str(body.platform_type),
    accountMode: str(body.account_mode),
  };
}

/** POST /{phone-number-id}/register; registering again with the same PIN is allowed. */
export async function registerPhoneNumber(ctx: PlatformContext, accessToken: string, phoneNumberId: string, pin: string): Promise<void> {
  await cloudCaller(ctx, accessToken)('POST', `/${phoneNumberId}/register`, { json: { messaging_product: 'whatsapp', pin } });
}
