// The flat body of POST /whatsapp/accounts/{id}/messages (DESIGN "WhatsApp") turned into the
// Cloud API's message object (platforms.md §7.1), and what is stored of it. Checked before any
// platform call: each problem is a 400 naming the field.
import { errors } from '../../http/errors.ts';
import type { Attachment } from '../conversations/records.ts';

export const MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'document', 'sticker', 'template', 'interactive', 'location', 'reaction'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'];
const CAPTIONED = ['image', 'video', 'document'];

export interface SendInput {
  to?: string | undefined;
  recipient?: string | undefined;
  conversationId?: string | undefined;
  type: string;
  text?: string | undefined;
  previewUrl?: boolean | undefined;
  url?: string | undefined;
  mediaId?: string | undefined;
  whatsappMediaId?: string | undefined;
  caption?: string | undefined;
  fileName?: string | undefined;
  template?: { name: string; language: string; components?: unknown[] | undefined } | undefined;
  interactive?: Record<string, unknown> | undefined;
  location?: { latitude: number; longitude: number; name?: string | undefined; address?: string | undefined } | undefined;
  reaction?: { messageId: string; emoji: string } | undefined;
  replyTo?: string | undefined;
}

/** The message object without `to` and the media source our mediaId still has to become. */
export interface Content {
  type: MessageType;
  payload: Record<string, unknown>;
  /** Our media to upload first (its WhatsApp id then goes into the type's object). */
  ourMediaId: string | null;
  stored: { text: string | null; attachments: Attachment[]; reaction: string | null };
}

const FIELDS_OF: Record<MessageType, string[]> = {
  text: ['text', 'previewUrl'],
  image: ['url', 'mediaId', 'whatsappMediaId', 'caption'],
  video: ['url', 'mediaId', 'whatsappMediaId', 'caption'],
  audio: ['url', 'mediaId', 'whatsappMediaId'],
  document: ['url', 'mediaId', 'whatsappMediaId', 'caption', 'fileName'],
  sticker: ['url', 'mediaId', 'whatsappMediaId'],
  template: ['template'],
  interactive: ['interactive'],
  location: ['location'],
  reaction: ['reaction'],
};
const CONTENT_FIELDS = [...new Set(Object.values(FIELDS_OF).flat())] as Array<keyof SendInput>;

export function contentOf(input: SendInput): Content {
  if (!(MESSAGE_TYPES as readonly string[]).includes(input.type)) throw errors.invalid('type', `must be one of ${MESSAGE_TYPES.join(', ')}`);
  const type = input.type as MessageType;
  const stray = CONTENT_FIELDS.find((f) => input[f] !== undefined && !FIELDS_OF[type].includes(f));
  if (stray) throw errors.invalid(stray, `not used by type ${type}`);
  if (input.replyTo !== undefined && type === 'reaction') throw errors.invalid('replyTo', 'a reaction names its message in reaction.messageId');

  if (type === 'text') {
    if (input.text === undefined) throw errors.invalid('text', 'required for type text');
    return { type, payload: { text: { body: input.text, preview_url: input.previewUrl === true } }, ourMediaId: null, stored: { text: input.text, attachments: [], reaction: null } };
  }
  if (MEDIA_TYPES.includes(type)) {
    const sources = (['url', 'mediaId', 'whatsappMediaId'] as const).filter((k) => input[k] !== undefined);
    if (!sources.length) throw errors.invalid('url', `required for type ${type} (or mediaId or whatsappMediaId)`);
    if (sources.length > 1) throw errors.invalid(sources[1] ?? 'mediaId', 'give one of url, mediaId and whatsappMediaId');
    if (input.url !== undefined && !/^https?:\/\//i.test(input.url)) throw errors.invalid('url', 'must be an http(s) URL WhatsApp can fetch');
    if (input.whatsappMediaId !== undefined && !/^\d{1,64}$/.test(input.whatsappMediaId)) throw errors.invalid('whatsappMediaId', 'must be a WhatsApp media id (digits)');
    const media: Record<string, unknown> = input.url !== undefined ? { link: input.url } : input.whatsappMediaId !== undefined ? { id: input.whatsappMediaId } : {};
    if (input.caption !== undefined && CAPTIONED.includes(type)) media.caption = input.caption;
    if (input.fileName !== undefined) media.filename = input.fileName;
    return {
      type,
      payload: { [type]: media },
      ourMediaId: input.mediaId ?? null,
      stored: { text: input.caption ?? null, attachments: [{ type, url: input.url ?? null }], reaction: null },
    };
  }
  if (type === 'template') {
    const template = input.template;
    if (!template) throw errors.invalid('template', 'required for type template ({name, language, components?})');
    const payload = { name: template.name, language: { code: template.language }, ...(template.components ? { components: template.components } : {}) };
    return { type, payload: { template: payload }, ourMediaId: null, stored: { text: null, attachments: [], reaction: null } };
  }
  if (type === 'interactive') {
    const interactive = input.interactive;
    if (!interactive) throw errors.invalid('interactive', 'required for type interactive');
    if (typeof interactive.type !== 'string') throw errors.invalid('interactive.type', 'required (button, list, cta_url …)');
    const body = interactive.body && typeof interactive.body === 'object' ? (interactive.body as Record<string, unknown>) : {};
    const text = typeof body.text === 'string' ? body.text : null;
    return { type, payload: { interactive }, ourMediaId: null, stored: { text, attachments: [], reaction: null } };
  }
  if (type === 'location') {
    const location = input.location;
    if (!location) throw errors.invalid('location', 'required for type location ({latitude, longitude, name?, address?})');
    return { type, payload: { location }, ourMediaId: null, stored: { text: location.name ?? null, attachments: [{ type: 'location', url: null }], reaction: null } };
  }
  const reaction = input.reaction;
  if (!reaction) throw errors.invalid('reaction', 'required for type reaction ({messageId, emoji})');
  return { type, payload: { reaction: { message_id: reaction.messageId, emoji: reaction.emoji } }, ourMediaId: null, stored: { text: null, attachments: [], reaction: reaction.emoji || null } };
}

/** `to` as WhatsApp takes it: E.164 digits, the `+` optional. */
export function recipientDigits(field: 'to' | 'recipient', value: string): string {
  if (!/^\+?\d{7,15}$/.test(value)) throw errors.invalid(field, 'must be a phone number in E.164 (7 to 15 digits, + optional)');
  return value.replace(/^\+/, '');
}
