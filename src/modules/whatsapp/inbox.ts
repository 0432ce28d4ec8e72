// WhatsApp conversations through the shared direct-message routes (contract "Direct messages":
// POST /inbox/conversations/{id}/messages also takes template, interactive, location, reaction,
// whatsappMediaId and replyTo for WhatsApp). The inbox body is read as the WhatsApp send's flat
// body for that conversation (messages.ts), so both routes check, send and store the same way;
// the seen mark is WhatsApp's read receipt on the person's latest message.
import type { ConversationRow } from '../../db/schema.ts';
import type { Tenant } from '../../db/tenant.ts';
import { errors } from '../../http/errors.ts';
import type { Caller } from '../../http/caller.ts';
import type { MessageView } from '../conversations/schemas.ts';
import { whatsappAccount } from './accounts.ts';
import type { SendInput } from './message-content.ts';
import { sendMessage } from './messages.ts';
import { callWhatsApp, type WhatsAppDeps } from './platform-call.ts';

export interface InboxSendBody {
  text?: string | undefined;
  mediaUrl?: string | undefined;
  mediaId?: string | undefined;
  attachmentType?: 'image' | 'video' | 'audio' | 'file' | undefined;
  tag?: 'HUMAN_AGENT' | undefined;
  template?: SendInput['template'];
  interactive?: SendInput['interactive'];
  location?: SendInput['location'];
  reaction?: SendInput['reaction'];
  whatsappMediaId?: string | undefined;
  replyTo?: string | undefined;
}

/** The fields only WhatsApp conversations take: 400 naming the first on another platform. */
export const WHATSAPP_ONLY = ['template', 'interactive', 'location', 'reaction', 'whatsappMediaId', 'replyTo'] as const;

function inputOf(conversationId: string, body: InboxSendBody): SendInput {
  if (body.tag !== undefined) throw errors.invalid('tag', 'WhatsApp has no HUMAN_AGENT tag: outside the 24-hour window only templates');
  const kinds = (['text', 'mediaUrl', 'mediaId', 'whatsappMediaId', 'template', 'interactive', 'location', 'reaction'] as const).filter((k) => body[k] !== undefined);
  if (!kinds.length) throw errors.invalid('text', 'required (or mediaUrl, mediaId, whatsappMediaId, template, interactive, location or reaction)');
  if (kinds.length > 1) throw errors.invalid(kinds[1] ?? 'mediaUrl', `give one of ${kinds.join(' and ')}: one message each`);
  const kind = kinds[0];
  const base = { conversationId, replyTo: body.replyTo };
  if (kind === 'text') {
    if (body.attachmentType !== undefined) throw errors.invalid('attachmentType', 'only with mediaUrl, mediaId or whatsappMediaId');
    return { ...base, type: 'text', text: body.text };
  }
  if (kind === 'template' || kind === 'interactive' || kind === 'location' || kind === 'reaction') return { ...base, type: kind, [kind]: body[kind] };
  const type = body.attachmentType === 'file' ? 'document' : body.attachmentType;
  if (type === undefined && kind !== 'mediaId') throw errors.invalid('attachmentType', `required with ${kind} (image, video, audio or file)`);
  // Our media without attachmentType: WhatsApp's type is read from the stored file's MIME type below.
  return { ...base, type: type ?? 'image', ...(kind === 'mediaUrl' ? { url: body.mediaUrl } : kind === 'mediaId' ? { mediaId: body.mediaId } : { whatsappMediaId: body.whatsappMediaId }) };
}

export async function sendFromInbox(deps: WhatsAppDeps, tenant: Tenant, caller: Caller, conversation: ConversationRow, body: InboxSendBody, signal: AbortSignal): Promise<MessageView> {
  const input = inputOf(conversation.id, body);
  if (input.mediaId !== undefined && body.attachmentType === undefined) {
    const media = await tenant.selectFrom('media').select('mime_type').where('id', '=', input.mediaId).executeTakeFirst();
    if (!media) throw errors.invalid('mediaId', 'no such media');
    input.type = media.mime_type.startsWith('video/') ? 'video' : media.mime_type.startsWith('audio/') ? 'audio' : media.mime_type.startsWith('image/') ? 'image' : 'document';
  }
  const row = await whatsappAccount(tenant, conversation.account_id);
  return sendMessage(deps, tenant, caller, row, input, signal);
}

/** The read receipt of the person's latest message (WhatsApp marks the earlier ones with it); nothing when they never wrote. */
export async function markSeenOnWhatsApp(deps: WhatsAppDeps, tenant: Tenant, conversation: ConversationRow): Promise<void> {
  const latest = await tenant
    .selectFrom('messages')
    .select('platform_message_id')
    .where('conversation_id', '=', conversation.id)
    .where('direction', '=', 'inbound')
    .where('platform_message_id', 'is not', null)
    .orderBy('sent_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const row = await whatsappAccount(tenant, conversation.account_id);
  const id = latest?.platform_message_id;
  if (!id) return;
  await callWhatsApp(deps, row, (cloud, credentials) => cloud.markRead(credentials, id, false));
}
