// WhatsApp media (platforms.md §7.2): multipart upload to POST /{phone-number-id}/media, the
// media node (GET: url, mime_type, sha256, file_size; DELETE), and the download of that url on
// lookaside.fbsbx.com, which needs the same Bearer token and expires after 5 minutes
// (settings.whatsapp.mediaUrlTtlSeconds). The bytes are kept, so what is downloaded is exactly
// what was uploaded (or what a person sent).
import { createHash, createHmac } from 'node:crypto';
import { isMultipartFile } from '../core/multipart.ts';
import { PlatformError } from '../core/platform-error.ts';
import { Host, type RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { sniff } from '../media/sniff.ts';
import { graphHostErrors, unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { graphInput, str, type GraphInput } from '../meta/params.ts';
import { wabaToken } from './auth.ts';
import { whatsappError } from './errors.ts';
import { kindOfMime, MEDIA_RULES, mediaTypeProblem } from './media-rules.ts';
import type { PhoneNumber, Waba, WhatsAppMedia } from './store.ts';

const LOOKASIDE = 'lookaside.fbsbx.com';
const SIGNING_KEY = 'sandbox-lookaside';

export function storeMedia(state: SandboxState, phone: PhoneNumber, bytes: Buffer, mimeType: string, filename: string | null): WhatsAppMedia {
  const media: WhatsAppMedia = {
    id: state.ids.numeric('wa-media', '4', 16),
    phoneNumberId: phone.id,
    mimeType,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes,
    filename,
    createdAt: state.clock.now(),
    deleted: false,
  };
  state.whatsapp.media.set(media.id, media);
  return media;
}

/** POST /{phone-number-id}/media, multipart `file`, `type`, `messaging_product`. */
export function uploadMedia(ctx: RouteContext, input: GraphInput, phone: PhoneNumber, waba: Waba): unknown {
  wabaToken(ctx, input, waba, 'whatsapp_business_messaging', `${phone.id}/media`);
  if (str(input, 'messaging_product') !== 'whatsapp') throw whatsappError(100, 'The parameter messaging_product is required and must be whatsapp.');
  const file = input.file;
  if (!isMultipartFile(file)) throw whatsappError(100, 'The parameter file is required (multipart/form-data).');
  const type = str(input, 'type') ?? file.contentType ?? '';
  const kind = kindOfMime(type);
  if (!kind) {
    const all = Object.values(MEDIA_RULES).flatMap((r) => r.mimes);
    throw whatsappError(131053, `Param file must be a file with one of the following types: ${all.join(', ')}. Received file of type '${type}'.`);
  }
  // Images, video and stickers are judged by their bytes, not by the declared type.
  const sniffable = kind === 'image' || kind === 'video' || kind === 'sticker';
  const problem = mediaTypeProblem(kind, sniffable ? (sniff(file.bytes.subarray(0, 32))?.mime ?? null) : type, file.size);
  if (problem) throw whatsappError(problem.code, problem.details);
  return { id: storeMedia(ctx.state, phone, file.bytes, type, file.filename).id };
}

function owner(state: SandboxState, media: WhatsAppMedia): { phone: PhoneNumber; waba: Waba } | null {
  const phone = state.whatsapp.phoneNumbers.get(media.phoneNumberId);
  const waba = phone ? state.whatsapp.wabas.get(phone.wabaId) : undefined;
  return phone && waba ? { phone, waba } : null;
}

function lookasideUrl(ctx: RouteContext, media: WhatsAppMedia): string {
  const ext = Math.floor(ctx.state.clock.now() / 1000) + ctx.state.settings.whatsapp.mediaUrlTtlSeconds;
  const hash = createHmac('sha256', SIGNING_KEY).update(`${media.id}:${ext}`).digest('base64url');
  return `${ctx.baseUrl}/${LOOKASIDE}/whatsapp_business/attachments/?mid=${media.id}&ext=${ext}&hash=${hash}`;
}

export const mediaNode = defineNode<WhatsAppMedia>({
  type: 'WhatsAppBusinessMedia',
  find: (state, id) => {
    const media = state.whatsapp.media.get(id);
    return media && !media.deleted ? media : undefined;
  },
  get({ ctx, input, node, id }) {
    const found = owner(ctx.state, node);
    if (!found) throw unsupportedRequest('GET', id);
    wabaToken(ctx, input, found.waba, 'whatsapp_business_messaging', id);
    const phoneId = str(input, 'phone_number_id');
    if (phoneId && ctx.state.whatsapp.phoneNumbers.get(phoneId)?.wabaId !== found.waba.id) throw whatsappError(100, `Param phone_number_id (${phoneId}) does not own this media.`);
    return { messaging_product: 'whatsapp', url: lookasideUrl(ctx, node), mime_type: node.mimeType, sha256: node.sha256, file_size: String(node.bytes.length), id: node.id };
  },
  delete({ ctx, input, node, id }) {
    const found = owner(ctx.state, node);
    if (!found) throw unsupportedRequest('DELETE', id);
    wabaToken(ctx, input, found.waba, 'whatsapp_business_messaging', id);
    node.deleted = true;
    return { success: true };
  },
});

/** lookaside.fbsbx.com: the download of a media URL, with the Bearer token (§7.2). */
export function lookasideHost(): Host {
  const host = new Host(LOOKASIDE, graphHostErrors);
  host.get('/whatsapp_business/attachments', (ctx) => {
    const { mid = '', ext = '', hash = '' } = ctx.query;
    const expected = createHmac('sha256', SIGNING_KEY).update(`${mid}:${ext}`).digest('base64url');
    const media = ctx.state.whatsapp.media.get(mid);
    if (!media || media.deleted || hash !== expected || Number(ext) * 1000 < ctx.state.clock.now()) {
      throw new PlatformError(404, { error: { message: 'URL signature expired or the media was deleted', type: 'OAuthException', code: 100 } });
    }
    const found = owner(ctx.state, media);
    if (!found) throw unsupportedRequest('GET', mid);
    try {
      wabaToken(ctx, graphInput(ctx), found.waba, 'whatsapp_business_messaging', mid);
    } catch (error) {
      if (error instanceof PlatformError) throw new PlatformError(401, error.body, error.headers);
      throw error;
    }
    return ctx.reply.type(media.mimeType).header('content-length', String(media.bytes.length)).send(media.bytes);
  });
  return host;
}
