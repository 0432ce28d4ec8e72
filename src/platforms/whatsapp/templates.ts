// Message templates of the number's business account (platforms.md §7.5):
// `/{waba-id}/message_templates` lists (filters status, name, category, language; Graph cursor
// paging), creates (submitted for review, PENDING) and deletes (by name: every language; with
// hsm_id: that one); `/{template-id}` reads one.
import type { PlatformContext } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { list, obj, str, type Json } from '../json.ts';
import { metaString, type AccountCredentials } from '../types.ts';
import type { NewTemplate, TemplateFilter, WhatsAppTemplate } from './capability.ts';
import { cloudCaller } from './cloud.ts';
import { isUnknownObject } from './errors.ts';

const FIELDS = 'id,name,language,status,category,components,parameter_format,quality_score,rejected_reason,previous_category';

function wabaOf(credentials: AccountCredentials): string {
  const waba = metaString(credentials.metadata, 'wabaId');
  if (!waba) throw new PlatformError('permanent', 'the account has no WhatsApp Business Account id; reconnect it', { platform: 'whatsapp' });
  return waba;
}

function templateOf(item: Json): WhatsAppTemplate {
  const quality = item.quality_score;
  return {
    id: str(item.id) ?? '',
    name: str(item.name) ?? '',
    language: str(item.language) ?? '',
    category: str(item.category) ?? '',
    status: str(item.status) ?? '',
    components: list(item.components),
    parameterFormat: str(item.parameter_format),
    // quality_score is {score, date} on templates; a bare string is read too.
    qualityScore: str(quality) ?? str(obj(quality).score),
    rejectedReason: str(item.rejected_reason),
    previousCategory: str(item.previous_category),
  };
}

export async function listTemplates(ctx: PlatformContext, credentials: AccountCredentials, filter: TemplateFilter): Promise<{ templates: WhatsAppTemplate[]; after: string | null }> {
  const body = await cloudCaller(ctx, credentials.accessToken)('GET', `/${wabaOf(credentials)}/message_templates`, {
    query: {
      fields: FIELDS,
      limit: filter.limit,
      after: filter.after ?? undefined,
      status: filter.status,
      name: filter.name,
      category: filter.category,
      language: filter.language,
    },
  });
  const paging = obj(body.paging);
  // The after cursor names a next page only when the answer links one.
  const after = str(paging.next) ? str(obj(paging.cursors).after) : null;
  return { templates: list(body.data).map((item) => templateOf(obj(item))), after };
}

export async function createTemplate(ctx: PlatformContext, credentials: AccountCredentials, template: NewTemplate): Promise<{ id: string; status: string; category: string }> {
  const body = await cloudCaller(ctx, credentials.accessToken)('POST', `/${wabaOf(credentials)}/message_templates`, {
    json: {
      name: template.name,
      language: template.language,
      category: template.category,
      components: template.components,
      ...(template.parameterFormat ? { parameter_format: template.parameterFormat } : {}),
    },
  });
  const id = str(body.id);
  if (!id) throw new PlatformError('transient', 'the created template has no id in the answer', { platform: 'whatsapp' });
  return { id, status: str(body.status) ?? 'PENDING', category: str(body.category) ?? template.category };
}

export async function getTemplate(ctx: PlatformContext, credentials: AccountCredentials, templateId: string): Promise<WhatsAppTemplate | null> {
  try {
    return templateOf(await cloudCaller(ctx, credentials.accessToken)('GET', `/${templateId}`, { query: { fields: FIELDS } }));
  } catch (error) {
    if (isUnknownObject(error)) return null;
    throw error;
  }
}

export async function deleteTemplate(ctx: PlatformContext, credentials: AccountCredentials, input: { name: string; templateId: string | null }): Promise<void> {
  await cloudCaller(ctx, credentials.accessToken)('DELETE', `/${wabaOf(credentials)}/message_templates`, {
    query: { name: input.name, ...(input.templateId ? { hsm_id: input.templateId } : {}) },
  });
}
