// Validation of a template at creation and edit (platforms.md §7.5): name of lowercase letters,
// digits and underscores, a language code, a category, and components (HEADER, BODY, FOOTER,
// BUTTONS) with sequential `{{n}}` placeholders and examples for them. Errors are Graph 100s
// with error_user_title/msg; the subcodes Meta uses for each rule are unconfirmed and omitted,
// except 2388024 (name and language exist already).
import { graphError } from '../meta/graph-error.ts';
import type { PlatformError } from '../core/platform-error.ts';
import { asText, type TemplateCategory, type TemplateComponent } from './store.ts';
import { placeholders } from './template-send.ts';

export const CATEGORIES: readonly TemplateCategory[] = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];
const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'];
const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'OTP', 'COPY_CODE', 'FLOW', 'MPM', 'CATALOG'];

export const templateError = (title: string, message: string, subcode?: number): PlatformError =>
  graphError({ code: 100, message: '(#100) Invalid parameter', subcode, userTitle: title, userMessage: message });

export function checkName(name: string | undefined): string {
  if (!name) throw templateError('Template name missing', 'The parameter name is required.');
  if (!/^[a-z0-9_]{1,512}$/.test(name)) throw templateError('Invalid template name', 'Template names may contain only lowercase letters, numbers and underscores.');
  return name;
}

export function checkLanguage(language: string | undefined): string {
  if (!language || !/^[a-z]{2,3}(_[A-Z]{2,3})?$/.test(language)) throw templateError('Invalid language', 'The parameter language must be a supported language code such as en_US.');
  return language;
}

export function checkCategory(category: string | undefined): TemplateCategory {
  if (!category || !CATEGORIES.includes(category as TemplateCategory)) throw templateError('Invalid category', 'The parameter category must be one of MARKETING, UTILITY, AUTHENTICATION.');
  return category as TemplateCategory;
}

/** Components as given (JSON array or JSON string), checked; returned as stored. */
export function checkComponents(value: unknown, category: TemplateCategory, format: 'POSITIONAL' | 'NAMED'): TemplateComponent[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      throw templateError('Invalid components', 'The parameter components must be a JSON array.');
    }
  }
  if (!Array.isArray(list)) throw templateError('Invalid components', 'The parameter components is required.');
  const components = list.map((c): TemplateComponent => {
    const record = (c && typeof c === 'object' ? c : {}) as Record<string, unknown>;
    const type = asText(record.type).toUpperCase();
    if (!COMPONENT_TYPES.includes(type)) throw templateError('Invalid component', `Component type must be one of ${COMPONENT_TYPES.join(', ')}.`);
    return { ...record, type };
  });
  const body = components.find((c) => c.type === 'BODY');
  if (!body) throw templateError('Body missing', 'A template needs a BODY component.');
  if (category !== 'AUTHENTICATION') {
    if (typeof body.text !== 'string' || !body.text.trim()) throw templateError('Body text missing', 'The BODY component needs text.');
    if ([...body.text].length > 1024) throw templateError('Body too long', 'BODY text may be at most 1024 characters.');
    checkVariables('BODY', body.text, format, (body.example as Record<string, unknown> | undefined)?.body_text ?? (body.example as Record<string, unknown> | undefined)?.body_text_named_params);
  }
  const header = components.find((c) => c.type === 'HEADER');
  if (header && (asText(header.format) || 'TEXT').toUpperCase() === 'TEXT') {
    if (typeof header.text !== 'string' || [...header.text].length > 60) throw templateError('Invalid header', 'A TEXT header needs text of at most 60 characters.');
    if (placeholders(header.text).length > 1) throw templateError('Invalid header', 'A header may have at most one variable.');
  }
  const footer = components.find((c) => c.type === 'FOOTER');
  if (footer && typeof footer.text === 'string' && [...footer.text].length > 60) throw templateError('Invalid footer', 'FOOTER text may be at most 60 characters.');
  const buttons = components.find((c) => c.type === 'BUTTONS');
  if (buttons) {
    const items = Array.isArray(buttons.buttons) ? (buttons.buttons as Array<Record<string, unknown>>) : [];
    if (!items.length || items.length > 10) throw templateError('Invalid buttons', 'BUTTONS needs between 1 and 10 buttons.');
    for (const b of items) if (!BUTTON_TYPES.includes(asText(b.type).toUpperCase())) throw templateError('Invalid button', `Button type must be one of ${BUTTON_TYPES.join(', ')}.`);
  }
  return components;
}

/** POSITIONAL variables are {{1}}…{{n}} in order; either format needs an example per variable. */
function checkVariables(where: string, text: string, format: 'POSITIONAL' | 'NAMED', example: unknown): void {
  const names = placeholders(text);
  if (!names.length) return;
  if (format === 'POSITIONAL' && names.some((n, i) => n !== String(i + 1))) {
    throw templateError('Invalid variables', `${where} variables must be sequential: {{1}}, {{2}} …`);
  }
  if (format === 'NAMED' && names.some((n) => !/^[a-z][a-z0-9_]*$/.test(n))) throw templateError('Invalid variables', `${where} named variables use lowercase letters, digits and underscores.`);
  const examples = Array.isArray(example) ? (format === 'POSITIONAL' ? (example[0] as unknown) : example) : null;
  if (!Array.isArray(examples) || examples.length !== names.length) {
    throw templateError('Missing example', `${where} has ${names.length} variable(s): give example values for each (example.body_text).`);
  }
}
