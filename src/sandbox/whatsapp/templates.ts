// Message templates (platforms.md §7.5): `/{waba-id}/message_templates` (create, list with
// filters and paging, delete by name or hsm_id), the template node (GET, POST edit), and the
// review: PENDING, then APPROVED or REJECTED after settings.whatsapp.templateReviewMs (or when
// the control API decides), announced by a `message_template_status_update` webhook (§7.7).
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { wabaToken } from './auth.ts';
import type { MessageTemplate, TemplateStatus, Waba } from './store.ts';
import { checkCategory, checkComponents, checkLanguage, checkName, templateError } from './template-rules.ts';
import { emit } from './webhooks.ts';

const DEFAULT_FIELDS = ['name', 'parameter_format', 'components', 'language', 'status', 'category', 'id'];

function templateFields(t: MessageTemplate) {
  return {
    id: () => t.id,
    name: () => t.name,
    language: () => t.language,
    status: () => t.status,
    category: () => t.category,
    previous_category: () => t.previousCategory ?? undefined,
    components: () => t.components,
    parameter_format: () => t.parameterFormat,
    quality_score: () => ({ score: t.qualityScore, date: Math.floor(t.createdAt / 1000) }),
    rejected_reason: () => t.rejectedReason,
  };
}

export function createTemplate(ctx: RouteContext, input: GraphInput, waba: Waba): unknown {
  wabaToken(ctx, input, waba, 'whatsapp_business_management', `${waba.id}/message_templates`);
  const name = checkName(str(input, 'name'));
  const language = checkLanguage(str(input, 'language'));
  const category = checkCategory(str(input, 'category'));
  const format = str(input, 'parameter_format') === 'NAMED' ? 'NAMED' : 'POSITIONAL';
  const components = checkComponents(input.components, category, format);
  const state = ctx.state;
  const exists = [...state.whatsapp.templates.values()].some((t) => t.wabaId === waba.id && t.name === name && t.language === language && t.status !== 'DELETED');
  if (exists) throw templateError('Message template already exists', `Content in ${language} already exists for ${name}. Choose another name or language.`, 2388024);
  const template: MessageTemplate = {
    id: state.ids.numeric('wa-template', '5', 16),
    wabaId: waba.id,
    name,
    language,
    category,
    previousCategory: null,
    status: 'PENDING',
    rejectedReason: 'NONE',
    components,
    parameterFormat: format,
    qualityScore: 'UNKNOWN',
    createdAt: state.clock.now(),
  };
  state.whatsapp.templates.set(template.id, template);
  scheduleReview(state, template);
  return { id: template.id, status: template.status, category: template.category };
}

function scheduleReview(state: SandboxState, template: MessageTemplate): void {
  state.timers.after(state.settings.whatsapp.templateReviewMs, () => {
    decideTemplate(state, template.id, state.settings.whatsapp.templateReviewOutcome, 'INVALID_FORMAT');
  });
}

/** Sets a template's status and announces it (review outcomes, pauses, disables …). */
export function decideTemplate(state: SandboxState, templateId: string, status: TemplateStatus, reason = 'NONE', onlyIfPending = true): MessageTemplate {
  const template = state.whatsapp.templates.get(templateId);
  if (!template) throw new Error(`no such template ${templateId}`);
  if (onlyIfPending && template.status !== 'PENDING') return template;
  const waba = state.whatsapp.wabas.get(template.wabaId);
  template.status = status;
  template.rejectedReason = status === 'REJECTED' ? reason : 'NONE';
  if (waba) {
    emit(state, waba, 'message_template_status_update', {
      event: status,
      message_template_id: Number(template.id),
      message_template_name: template.name,
      message_template_language: template.language,
      reason: template.rejectedReason,
      message_template_category: template.category,
    });
  }
  return template;
}

export function listTemplates(ctx: RouteContext, input: GraphInput, waba: Waba): unknown {
  wabaToken(ctx, input, waba, 'whatsapp_business_management', `${waba.id}/message_templates`);
  const name = str(input, 'name')?.toLowerCase();
  const filters = { status: str(input, 'status'), category: str(input, 'category'), language: str(input, 'language') };
  const fields = parseFields(str(input, 'fields'));
  const rows = [...ctx.state.whatsapp.templates.values()]
    .filter((t) => t.wabaId === waba.id && t.status !== 'DELETED' && (!name || t.name.includes(name)))
    .filter((t) => (!filters.status || t.status === filters.status) && (!filters.category || t.category === filters.category) && (!filters.language || t.language === filters.language))
    .map((t) => selectFields('WhatsAppMessageTemplate', templateFields(t), fields, DEFAULT_FIELDS));
  return pageOf(ctx, input, rows);
}

/** DELETE ?name= removes every language; with hsm_id only that template. */
export function deleteTemplates(ctx: RouteContext, input: GraphInput, waba: Waba): unknown {
  wabaToken(ctx, input, waba, 'whatsapp_business_management', `${waba.id}/message_templates`);
  const name = str(input, 'name');
  const hsmId = str(input, 'hsm_id');
  if (!name) throw templateError('Template name missing', 'The parameter name is required.');
  const matches = [...ctx.state.whatsapp.templates.values()].filter((t) => t.wabaId === waba.id && t.name === name && t.status !== 'DELETED' && (!hsmId || t.id === hsmId));
  if (!matches.length) throw templateError('Message template not found', `No template named ${name}${hsmId ? ` with id ${hsmId}` : ''} exists.`);
  for (const t of matches) t.status = 'DELETED';
  return { success: true };
}

export const templateNode = defineNode<MessageTemplate>({
  type: 'WhatsAppMessageTemplate',
  find: (state, id) => {
    const t = state.whatsapp.templates.get(id);
    return t && t.status !== 'DELETED' ? t : undefined;
  },
  get({ ctx, input, node, id }) {
    const waba = ctx.state.whatsapp.wabas.get(node.wabaId);
    if (!waba) throw unsupportedRequest('GET', id);
    wabaToken(ctx, input, waba, 'whatsapp_business_management', id);
    return selectFields('WhatsAppMessageTemplate', templateFields(node), parseFields(str(input, 'fields')), DEFAULT_FIELDS);
  },
  /** Edit: new components (and category) go back to review. */
  post({ ctx, input, node, id }) {
    const waba = ctx.state.whatsapp.wabas.get(node.wabaId);
    if (!waba) throw unsupportedRequest('POST', id);
    wabaToken(ctx, input, waba, 'whatsapp_business_management', id);
    if (!['APPROVED', 'REJECTED', 'PAUSED'].includes(node.status)) throw templateError('Template cannot be edited', `A template in status ${node.status} cannot be edited.`);
    const category = str(input, 'category') ? checkCategory(str(input, 'category')) : node.category;
    if (input.components !== undefined) node.components = checkComponents(input.components, category, node.parameterFormat);
    if (category !== node.category) node.previousCategory = node.category;
    node.category = category;
    node.status = 'PENDING';
    scheduleReview(ctx.state, node);
    return { success: true };
  },
});
