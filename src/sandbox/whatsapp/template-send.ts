// Sending a template (platforms.md §7.1 `template`, §7.6 132xxx): the template must exist in the
// WABA with that name and language and be APPROVED (PAUSED 132015, DISABLED 132016, otherwise
// 132001); the parameters of each component must match the template's placeholders in number
// (132000) and format (132012), and the hydrated body must stay ≤ 1024 characters (132005).
import type { SandboxState } from '../core/state.ts';
import { whatsappError } from './errors.ts';
import { asText, type MessageTemplate, type PhoneNumber, type TemplateComponent } from './store.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);

/** `{{1}}`, `{{2}}` (POSITIONAL) or `{{first_name}}` (NAMED), in order of first appearance. */
export function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set([...text.matchAll(/\{\{\s*([a-z0-9_]+)\s*\}\}/gi)].map((m) => m[1] ?? ''))];
}

const component = (template: MessageTemplate, type: string): TemplateComponent | undefined => template.components.find((c) => String(c.type).toUpperCase() === type);

export function checkTemplateSend(state: SandboxState, phone: PhoneNumber, value: unknown): MessageTemplate {
  const input = obj(value) ?? {};
  const name = typeof input.name === 'string' ? input.name : null;
  const language = obj(input.language)?.code;
  if (!name) throw whatsappError(131008, "The parameter template['name'] is required.");
  if (typeof language !== 'string') throw whatsappError(131008, "The parameter template['language']['code'] is required.");
  const template = [...state.whatsapp.templates.values()].find((t) => t.wabaId === phone.wabaId && t.name === name && t.language === language && t.status !== 'DELETED');
  if (!template || !['APPROVED', 'PAUSED', 'DISABLED'].includes(template.status)) {
    throw whatsappError(132001, `template name (${name}) does not exist in ${language}`);
  }
  if (template.status === 'PAUSED') throw whatsappError(132015, `Template ${name} is paused due to low quality.`);
  if (template.status === 'DISABLED') throw whatsappError(132016, `Template ${name} is disabled due to low quality.`);
  const given = Array.isArray(input.components) ? input.components.map((c) => obj(c) ?? {}) : [];
  const find = (type: string, index?: number) => given.find((c) => String(c.type).toLowerCase() === type && (index === undefined || Number(c.index) === index));
  const params = (c: Json | undefined) => (Array.isArray(c?.parameters) ? c.parameters.map((p) => obj(p) ?? {}) : []);

  const header = component(template, 'HEADER');
  const format = (asText(header?.format) || 'TEXT').toUpperCase();
  const headerParams = params(find('header'));
  if (header && format !== 'TEXT') {
    expectCount('header', headerParams.length, 1);
    const kind = asText(headerParams[0]?.type);
    if (kind.toUpperCase() !== format) throw whatsappError(132012, `header: Format mismatch, expected ${format}, received ${kind.toUpperCase()}`);
  } else {
    expectCount('header', headerParams.length, placeholders(header?.text).length);
    checkTextParams(template, 'header', headerParams, placeholders(header?.text));
  }

  const body = component(template, 'BODY');
  const names = placeholders(body?.text);
  const bodyParams = params(find('body'));
  expectCount('body', bodyParams.length, names.length);
  const values = checkTextParams(template, 'body', bodyParams, names);
  const hydrated = asText(body?.text).replace(/\{\{\s*([a-z0-9_]+)\s*\}\}/gi, (_m, key: string) => values.get(key) ?? '');
  if ([...hydrated].length > 1024) throw whatsappError(132005, 'Translated text too long: the body with its parameters is over 1024 characters.');

  const buttons = component(template, 'BUTTONS');
  const list = Array.isArray(buttons?.buttons) ? buttons.buttons.map((b) => obj(b) ?? {}) : [];
  list.forEach((button, index) => {
    if (String(button.type).toUpperCase() !== 'URL') return;
    const want = placeholders(button.url).length;
    const got = params(find('button', index));
    expectCount(`button at index ${index}`, got.length, want);
  });
  return template;
}

function expectCount(where: string, got: number, want: number): void {
  if (got !== want) throw whatsappError(132000, `${where}: number of localizable_params (${got}) does not match the expected number of params (${want})`);
}

/** Text-like parameters (text, currency, date_time); NAMED templates match on parameter_name. */
function checkTextParams(template: MessageTemplate, where: string, list: Json[], names: string[]): Map<string, string> {
  const values = new Map<string, string>();
  list.forEach((p, i) => {
    const kind = asText(p.type);
    let value: string;
    if (kind === 'text' && typeof p.text === 'string') value = p.text;
    else if (kind === 'currency') value = asText(obj(p.currency)?.fallback_value);
    else if (kind === 'date_time') value = asText(obj(p.date_time)?.fallback_value);
    else throw whatsappError(132012, `${where}: parameter ${i + 1} has format ${kind || 'none'}, expected text`);
    if (/[\n\t]| {5,}/.test(value)) throw whatsappError(100, 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces');
    const key = template.parameterFormat === 'NAMED' ? asText(p.parameter_name) : (names[i] ?? String(i + 1));
    if (template.parameterFormat === 'NAMED' && !names.includes(key)) throw whatsappError(132000, `${where}: parameter_name (${key}) is not a parameter of the template`);
    values.set(key, value);
  });
  return values;
}
