// Account-side events the control API can cause, each with its webhook (platforms.md §7.7):
// a template's quality score or category changes, a number's quality or messaging limit
// changes, and the account is restricted, locked or lifted (`account_update`).
import type { SandboxState } from '../core/state.ts';
import type { LimitTier, QualityRating, TemplateCategory } from './store.ts';
import { emit } from './webhooks.ts';

function template(state: SandboxState, id: string) {
  const t = state.whatsapp.templates.get(id);
  const waba = t ? state.whatsapp.wabas.get(t.wabaId) : undefined;
  if (!t || !waba) throw new Error(`templateId: no such template ${id}`);
  return { t, waba };
}

export function changeTemplateQuality(state: SandboxState, templateId: string, score: QualityRating): void {
  const { t, waba } = template(state, templateId);
  const previous = t.qualityScore;
  t.qualityScore = score;
  emit(state, waba, 'message_template_quality_update', {
    previous_quality_score: previous,
    new_quality_score: score,
    message_template_id: Number(t.id),
    message_template_name: t.name,
    message_template_language: t.language,
  });
}

export function changeTemplateCategory(state: SandboxState, templateId: string, category: TemplateCategory): void {
  const { t, waba } = template(state, templateId);
  t.previousCategory = t.category;
  t.category = category;
  emit(state, waba, 'template_category_update', {
    message_template_id: Number(t.id),
    message_template_name: t.name,
    message_template_language: t.language,
    previous_category: t.previousCategory,
    new_category: category,
  });
}

export interface PhoneQualityInput {
  phoneNumberId: string;
  event: 'FLAGGED' | 'UNFLAGGED' | 'UPGRADE' | 'DOWNGRADE' | 'THROUGHPUT_UPGRADE' | 'ONBOARDING';
  qualityRating?: QualityRating | undefined;
  messagingLimitTier?: LimitTier | undefined;
}

export function changePhoneQuality(state: SandboxState, input: PhoneQualityInput): void {
  const phone = state.whatsapp.phoneNumbers.get(input.phoneNumberId);
  const waba = phone ? state.whatsapp.wabas.get(phone.wabaId) : undefined;
  if (!phone || !waba) throw new Error('phoneNumberId: no such phone number');
  const oldLimit = phone.messagingLimitTier;
  if (input.qualityRating) phone.qualityRating = input.qualityRating;
  if (input.messagingLimitTier) phone.messagingLimitTier = input.messagingLimitTier;
  const value: Record<string, unknown> = { display_phone_number: phone.digits, event: input.event, current_limit: phone.messagingLimitTier };
  if (oldLimit !== phone.messagingLimitTier) value.old_limit = oldLimit;
  emit(state, waba, 'phone_number_quality_update', value);
}

export interface AccountUpdateInput {
  wabaId: string;
  /** null lifts a restriction. */
  restriction: null | 'restricted' | 'locked';
}

export function changeAccountRestriction(state: SandboxState, input: AccountUpdateInput): void {
  const waba = state.whatsapp.wabas.get(input.wabaId);
  if (!waba) throw new Error('wabaId: no such WhatsApp Business Account');
  waba.restriction = input.restriction;
  const phone = state.whatsapp.phoneNumbers.get(waba.phoneNumberIds[0] ?? '');
  const value: Record<string, unknown> = { phone_number: phone?.digits ?? '' };
  if (input.restriction === 'restricted') {
    value.event = 'ACCOUNT_RESTRICTION';
    value.restriction_info = [{ restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: Math.floor(state.clock.now() / 1000) + 7 * 86_400 }];
  } else if (input.restriction === 'locked') {
    value.event = 'DISABLED_UPDATE';
    value.ban_info = { waba_ban_state: 'DISABLE', waba_ban_date: new Date(state.clock.now()).toISOString().slice(0, 10) };
  } else {
    // Lifting: the same event with no restriction left (shape unconfirmed).
    value.event = 'ACCOUNT_RESTRICTION';
    value.restriction_info = [];
  }
  emit(state, waba, 'account_update', value);
}
