// The conversations module: direct messages on instagram and facebook Messenger (WhatsApp
// conversations share its routes and rows), read from the store, sent and synced live
// (contract "Direct messages"). Inbound messaging webhooks are recorded through inbound.ts by
// the platform-webhooks job.
import type { RouteRegistrar } from '../../http/routes.ts';
import { getConversation } from './routes/get-conversation.ts';
import { listConversations } from './routes/list-conversations.ts';
import { listMessages } from './routes/list-messages.ts';
import { markRead } from './routes/mark-read.ts';
import { sendMessage } from './routes/send-message.ts';
import { syncConversation } from './routes/sync-conversation.ts';
import { syncConversations } from './routes/sync-conversations.ts';
import { updateConversation } from './routes/update-conversation.ts';
import { Conversation, Message, MessagingWindow } from './schemas.ts';

export const conversationRoutes: RouteRegistrar[] = [listConversations, syncConversations, getConversation, updateConversation, listMessages, sendMessage, markRead, syncConversation];

export const conversationSchemas = [MessagingWindow, Conversation, Message];
