// Message templates of the number's business account (platforms.md §7.5):
// `/{waba-id}/message_templates` lists (filters status, name, category, language; Graph cursor
// paging), creates (submitted for review, PENDING) and deletes (by name: every language; with
// hsm_id: that one); `/{template-id}` reads one. A token may reach several business accounts
// and `/{template-id}` reads a template of any of them, so a template is the account's only when
// its own WABA lists it (by name and language, which the template read gives).
import type { PlatformContext } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { list, obj, str, type Json } from '../json.ts';
import { metaString, type AccountCredentials } from '../types.ts';
import type { NewTemplate, TemplateFilter, WhatsAppTemplate } from './capability.ts';
import { cloudCaller, type CloudCall } from './cloud.ts';
import { isUnknownObject } from './errors.ts';

const FIELDS = 'id,name,language,status,category,components,parameter_format,quality_score,rejected_reason,previous_category';
/** Pages of the WABA's list read to find one template: its name and language leave a handful (the name filter also matches longer names). */
const MEMBERSHIP_PAGES = 10;

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

/** Whether the account's WABA lists the template. */
async function listedByWaba(call: CloudCall, credentials: AccountCredentials, template: WhatsAppTemplate): Promise<boolean> {
  let after: string | undefined;
  for (let page = 0; page < MEMBERSHIP_PAGES; page++) {
    const body = await call('GET', `/${wabaOf(credentials)}/message_templates`, { query: { fields: 'id', name: template.name, language: template.language, limit: 100, after } });
    if (list(body.data).some((item) => str(obj(item).id) === template.id)) return true;
    const paging = obj(body.paging);
    after = (str(paging.next) ? str(obj(paging.cursors).after) : null) ?? undefined;
    if (after === undefined) return false;
  }
  return false;
}

export async function getTemplate(ctx: PlatformContext, credentials: AccountCredentials, templateId: string): Promise<WhatsAppTemplate | null> {
  const call = cloudCaller(ctx, credentials.accessToken);
  let template: WhatsAppTemplate;
  try {
    template = templateOf(await call('GET', `/${templateId}`, { query: { fields: FIELDS } }));
  } catch (error) {
    if (isUnknownObject(error)) return null;
    throw error;
  }
  return (await listedByWaba(call, credentials, template)) ? template : null;
}

export async function deleteTemplate(ctx: PlatformContext, credentials: AccountCredentials, input: { name: string; templateId: string | null }): Promise<void> {
  await cloudCaller(ctx, credentials.accessToken)('DELETE', `/${wabaOf(credentials)}/message_templates`, {
    query: { name: input.name, ...(input.templateId ? { hsm_id: input.templateId } : {}) },
  });
}
