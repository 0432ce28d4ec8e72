// Message templates of the account's business account (contract "WhatsApp"; DESIGN: list
// `{templates, after}`, create 201 with status PENDING). Read and written live on the Cloud
// API; nothing is stored (review outcomes arrive as template.status events). The Cloud API's
// rejections of a template are 400 template_error with its explanation.
import type { AccountRow } from '../../db/schema.ts';
import { errors } from '../../http/errors.ts';
import type { NewTemplate, WhatsAppTemplate } from '../../platforms/types.ts';
import { unwrapCursor, wrapCursor } from '../comments/service.ts';
import { callWhatsApp, type WhatsAppDeps } from './platform-call.ts';
import { isPlatformId, type TemplateView } from './schemas.ts';

/** Templates per page when the caller gives no limit. */
export const DEFAULT_LIMIT = 25;

export const presentTemplate = (t: WhatsAppTemplate): TemplateView => ({ ...t });

export interface TemplateQuery {
  status?: string | undefined;
  name?: string | undefined;
  category?: string | undefined;
  language?: string | undefined;
  limit?: number | undefined;
  after?: string | undefined;
}

export async function listTemplates(deps: WhatsAppDeps, row: AccountRow, query: TemplateQuery): Promise<{ templates: TemplateView[]; after: string | null }> {
  const after = unwrapCursor(query.after);
  const page = await callWhatsApp(
    deps,
    row,
    (cloud, credentials) => cloud.listTemplates(credentials, { status: query.status, name: query.name, category: query.category, language: query.language, limit: query.limit ?? DEFAULT_LIMIT, after }),
    'template_error',
  );
  return { templates: page.templates.map(presentTemplate), after: wrapCursor(page.after) };
}

export async function createTemplate(deps: WhatsAppDeps, row: AccountRow, input: NewTemplate): Promise<TemplateView> {
  const created = await callWhatsApp(deps, row, (cloud, credentials) => cloud.createTemplate(credentials, input), 'template_error');
  return {
    id: created.id,
    name: input.name,
    language: input.language,
    category: created.category,
    status: created.status,
    components: input.components,
    parameterFormat: input.parameterFormat ?? 'POSITIONAL',
    qualityScore: null,
    rejectedReason: null,
    previousCategory: null,
  };
}

export async function getTemplate(deps: WhatsAppDeps, row: AccountRow, templateId: string): Promise<TemplateView> {
  if (!isPlatformId(templateId)) throw errors.notFound('Template');
  const template = await callWhatsApp(deps, row, (cloud, credentials) => cloud.getTemplate(credentials, templateId), 'template_error');
  if (!template) throw errors.notFound('Template');
  return presentTemplate(template);
}

/**
 * Deletes one language of a template, or with allLanguages every language of its name (the
 * Cloud API deletes by name, narrowed by hsm_id). The template is read first: an unknown one is
 * 404, and a `name` that is not the template's is a 400 naming it rather than a silent no-op.
 */
export async function deleteTemplate(deps: WhatsAppDeps, row: AccountRow, templateId: string, input: { name?: string | undefined; allLanguages: boolean }): Promise<void> {
  const template = await getTemplate(deps, row, templateId);
  if (input.name !== undefined && input.name !== template.name) throw errors.invalid('name', `is not the name of template ${templateId} (${template.name})`);
  await callWhatsApp(deps, row, (cloud, credentials) => cloud.deleteTemplate(credentials, { name: template.name, templateId: input.allLanguages ? null : templateId }), 'template_error');
}
