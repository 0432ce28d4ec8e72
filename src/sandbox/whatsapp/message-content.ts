// The content rules of POST /{phone-number-id}/messages for every type but `template`
// (platforms.md §7.1). Missing fields answer 131008, bad values 131009, each with
// `error_data.details` naming the parameter. Limits marked unconfirmed in §7.1 (text 4096,
// list rows 10) are applied as written there.
import type { SandboxState } from '../core/state.ts';
import { whatsappError } from './errors.ts';
import { asText, type PhoneNumber } from './store.ts';

type Json = Record<string, unknown>;

export const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
export const MESSAGE_TYPES = ['text', ...MEDIA_TYPES, 'location', 'contacts', 'interactive', 'reaction', 'template'] as const;

/** What a media message still needs after validation: a link to fetch, or an uploaded id. */
export type MediaSource = { type: MediaType; link: string } | { type: MediaType; id: string } | null;

const obj = (value: unknown): Json | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const missing = (param: string) => whatsappError(131008, `The parameter ${param} is required.`);
const invalid = (details: string) => whatsappError(131009, details);

function within(value: string, param: string, max: number): void {
  if ([...value].length > max) throw invalid(`Param ${param} must be at most ${max} characters long.`);
}

export function checkContent(state: SandboxState, phone: PhoneNumber, type: string, body: Json): MediaSource {
  const content = obj(body[type]);
  if (!content && type !== 'contacts') throw missing(type);
  switch (type) {
    case 'text': {
      const value = text(content?.body);
      if (!value) throw missing("text['body']");
      within(value, "text['body']", 4096);
      return null;
    }
    case 'location':
      if (typeof content?.latitude !== 'number' && typeof content?.latitude !== 'string') throw missing("location['latitude']");
      if (typeof content.longitude !== 'number' && typeof content.longitude !== 'string') throw missing("location['longitude']");
      return null;
    case 'contacts':
      return checkContacts(body.contacts);
    case 'interactive':
      return checkInteractive(content ?? {});
    case 'reaction': {
      const id = text(content?.message_id);
      if (!id) throw missing("reaction['message_id']");
      if (!state.whatsapp.messages.has(id)) throw invalid(`Message ${id} in reaction is not a message of this conversation.`);
      if (typeof content?.emoji !== 'string') throw missing("reaction['emoji']");
      return null;
    }
    default:
      return checkMedia(state, phone, type as MediaType, content ?? {});
  }
}

function checkMedia(state: SandboxState, phone: PhoneNumber, type: MediaType, content: Json): MediaSource {
  const id = text(content.id);
  const link = text(content.link);
  if (!id && !link) throw missing(`${type}['id'] or ${type}['link']`);
  if (id && link) throw invalid(`Param ${type} must have either 'id' or 'link', not both.`);
  if (content.caption !== undefined) {
    if (type === 'audio' || type === 'sticker') throw invalid(`Param caption is not allowed for ${type} messages.`);
    within(asText(content.caption), `${type}['caption']`, 1024);
  }
  if (id) {
    const media = state.whatsapp.media.get(id);
    const owner = media ? state.whatsapp.phoneNumbers.get(media.phoneNumberId) : undefined;
    if (!media || media.deleted || owner?.wabaId !== phone.wabaId) throw invalid(`Param ${type}['id'] is not a valid media id (${id}).`);
    return { type, id };
  }
  if (!link || !/^https?:\/\//i.test(link)) throw invalid(`Param ${type}['link'] must be a valid http or https URL.`);
  return { type, link };
}

function checkContacts(value: unknown): null {
  if (!Array.isArray(value) || !value.length) throw missing('contacts');
  value.forEach((contact, i) => {
    if (!text(obj(obj(contact)?.name)?.formatted_name)) throw missing(`contacts[${i}]['name']['formatted_name']`);
  });
  return null;
}

/** Reply buttons (≤3, titles ≤20, unique ids), lists (≤10 sections, ≤10 rows in all), CTA URL. */
function checkInteractive(content: Json): null {
  const kind = text(content.type);
  if (!kind) throw missing("interactive['type']");
  const action = obj(content.action);
  const body = text(obj(content.body)?.text);
  if (kind === 'button' || kind === 'list' || kind === 'cta_url') {
    if (!body) throw missing("interactive['body']['text']");
    within(body, "interactive['body']['text']", 1024);
  }
  if (!action) throw missing("interactive['action']");
  if (kind === 'button') {
    const buttons = Array.isArray(action.buttons) ? action.buttons.map(obj) : [];
    if (buttons.length < 1 || buttons.length > 3) throw invalid("Param interactive['action']['buttons'] must have between 1 and 3 buttons.");
    const ids = new Set<string>();
    buttons.forEach((b, i) => {
      const reply = obj(b?.reply);
      const id = text(reply?.id);
      const title = text(reply?.title);
      if (b?.type !== 'reply' || !id || !title) throw missing(`interactive['action']['buttons'][${i}]['reply']['id'|'title']`);
      within(title, `interactive['action']['buttons'][${i}]['reply']['title']`, 20);
      if (ids.has(id)) throw invalid('Button ids must be unique.');
      ids.add(id);
    });
  } else if (kind === 'list') {
    const button = text(action.button);
    if (!button) throw missing("interactive['action']['button']");
    within(button, "interactive['action']['button']", 20);
    const sections = Array.isArray(action.sections) ? action.sections.map(obj) : [];
    if (sections.length < 1 || sections.length > 10) throw invalid("Param interactive['action']['sections'] must have between 1 and 10 sections.");
    let rows = 0;
    sections.forEach((section, i) => {
      if (sections.length > 1 && !text(section?.title)) throw missing(`interactive['action']['sections'][${i}]['title']`);
      for (const row of Array.isArray(section?.rows) ? section.rows.map(obj) : []) {
        rows++;
        if (!text(row?.id) || !text(row?.title)) throw missing(`interactive['action']['sections'][${i}]['rows'][]['id'|'title']`);
        within(text(row?.title) ?? '', 'row title', 24);
        if (row?.description !== undefined) within(asText(row.description), 'row description', 72);
      }
    });
    if (rows < 1 || rows > 10) throw invalid('Total row count across sections must be between 1 and 10.');
  } else if (kind === 'cta_url') {
    const params = obj(action.parameters);
    if (action.name !== 'cta_url' || !text(params?.display_text) || !text(params?.url)) throw missing("interactive['action']['parameters']['display_text'|'url']");
  } else if (!['product', 'product_list', 'catalog_message', 'flow', 'call_permission_request'].includes(kind)) {
    throw invalid(`Param interactive['type'] must be one of {button, list, cta_url, product, product_list, catalog_message, flow, call_permission_request}.`);
  }
  return null;
}
