// Direct messages on the Meta family (platforms.md §2.8, §3.3–3.4): Messenger for a Page and
// Instagram Direct for an instagram account of either login, which differ only in where the
// calls go and what the people are called:
//   Messenger              graph.facebook.com  /{page-id}/messages, /{page-id}/conversations?platform=messenger
//   instagram (FB Login)   graph.facebook.com  /{page-id}/messages, /{page-id}/conversations?platform=instagram
//   instagram (IG Login)   graph.instagram.com /{ig-user-id}/messages, /{ig-user-id}/conversations?platform=instagram
// Sends are JSON (`recipient`, `message`, `messaging_type`, `tag`); a conversation's messages are
// its `/messages` edge (newest first, cursor paging); a person's profile is their node. Failures
// go through the messaging table (messaging-errors.ts) before the Graph one.
import type { PlatformHttp } from '../http.ts';
import { graphTimeMs, list, obj, str, type Json } from '../json.ts';
import type { Messaging, MessagingParticipant, PlatformConversation, PlatformMessage } from '../messaging-types.ts';
import type { AccountCredentials } from '../types.ts';
import { metaString } from '../types.ts';
import { nextCursor } from './comment-paging.ts';
import { withMessagingErrors } from './messaging-errors.ts';
import { graphCaller } from './publish-steps.ts';

const MESSAGE_FIELDS = 'id,created_time,from,to,message,attachments';
/** The Conversations API's page size cap (the sandbox's too). */
const MAX_PAGE = 100;

export interface MetaMessagingSetup {
  platform: 'facebook' | 'instagram';
  /** The Graph host of an account (graph.instagram.com for Instagram Login). */
  host: (account: AccountCredentials) => string;
  /** The object that sends and lists: the Page, or the Instagram account on its own host. */
  inboxId: (account: AccountCredentials) => string;
  /** `platform=` of the conversation list. */
  listPlatform: 'messenger' | 'instagram';
  /** The profile fields of a person (Instagram people have usernames, Messenger people names). */
  profileFields: string;
  permissions: (account: AccountCredentials) => string[];
}

function participantOf(row: Json): MessagingParticipant {
  return { id: str(row.id) ?? '', username: str(row.username), name: str(row.name) };
}

/** An attachment's address, wherever the platform put it (payload, image_data, video_data, file_url). */
function attachmentOf(row: Json): { type: string; url: string | null } {
  const mime = str(row.mime_type);
  const type = str(row.type) ?? (mime ? (mime.split('/')[0] ?? 'file') : 'file');
  const url = str(row.url) ?? str(obj(row.payload).url) ?? str(obj(row.image_data).url) ?? str(obj(row.video_data).url) ?? str(row.file_url);
  return { type, url };
}

function messageOf(row: Json): PlatformMessage {
  return {
    id: str(row.id) ?? '',
    createdAt: graphTimeMs(row.created_time),
    fromId: str(obj(row.from).id),
    text: typeof row.message === 'string' && row.message !== '' ? row.message : null,
    attachments: list(obj(row.attachments).data).map((a) => attachmentOf(obj(a))),
  };
}

export function metaMessaging(http: PlatformHttp, setup: MetaMessagingSetup): Messaging {
  const call = (account: AccountCredentials) => graphCaller(http, setup.platform, setup.host(account), account.accessToken);
  const conversationOf = (account: AccountCredentials, row: Json): PlatformConversation => {
    const people = list(obj(row.participants).data).map((p) => participantOf(obj(p)));
    const own = new Set([account.platformUserId, metaString(account.metadata, 'pageId')]);
    return { id: str(row.id) ?? '', updatedAt: graphTimeMs(row.updated_time), participant: people.find((p) => p.id && !own.has(p.id)) ?? null };
  };
  const listConversations = (account: AccountCredentials, params: Record<string, string | number | undefined>) =>
    withMessagingErrors(() => call(account)('GET', `/${setup.inboxId(account)}/conversations`, { platform: setup.listPlatform, fields: 'id,updated_time,participants', ...params }));
  return {
    send(account, message) {
      const body: Json = { recipient: { id: message.recipientId } };
      if (message.tag) Object.assign(body, { messaging_type: 'MESSAGE_TAG', tag: message.tag });
      else body.messaging_type = 'RESPONSE';
      body.message = message.attachment ? { attachment: { type: message.attachment.type, payload: { url: message.attachment.url } } } : { text: message.text ?? '' };
      return withMessagingErrors(async () => {
        const answer = await call(account)('POST', `/${setup.inboxId(account)}/messages`, undefined, { json: body });
        return { platformMessageId: str(answer.message_id) ?? '' };
      });
    },
    async markSeen(account, recipientId) {
      await withMessagingErrors(() => call(account)('POST', `/${setup.inboxId(account)}/messages`, undefined, { json: { recipient: { id: recipientId }, sender_action: 'mark_seen' } }));
    },
    async conversations(account, page) {
      const body = await listConversations(account, { limit: Math.min(page.limit, MAX_PAGE), after: page.after ?? undefined });
      return { items: list(body.data).map((row) => conversationOf(account, obj(row))), after: nextCursor(body) };
    },
    async conversationWith(account, participantId) {
      const body = await listConversations(account, { user_id: participantId });
      const first = list(body.data)[0];
      return first ? conversationOf(account, obj(first)) : null;
    },
    async messages(account, conversationId, page) {
      const body = await withMessagingErrors(() =>
        call(account)('GET', `/${conversationId}/messages`, { fields: MESSAGE_FIELDS, limit: Math.min(page.limit, MAX_PAGE), after: page.after ?? undefined }),
      );
      return { items: list(body.data).map((row) => messageOf(obj(row))), after: nextCursor(body) };
    },
    async profile(account, participantId) {
      const body = await withMessagingErrors(() => call(account)('GET', `/${participantId}`, { fields: setup.profileFields }));
      return { ...participantOf(body), id: participantId };
    },
    permissions: setup.permissions,
  };
}

