// The one list of inbound webhook handlers (inbound-handler.ts), in the order platform_event.process
// runs them: their parse() in turn, then their record() in one transaction, their notes in this order.
import { whatsappAccountHandler } from '../whatsapp/account-events.ts';
import { whatsappMessagesHandler } from '../whatsapp/inbound-messages.ts';
import { commentsHandler } from './comments-handler.ts';
import type { InboundHandler } from './inbound-handler.ts';
import { messagingHandler } from './messaging-handler.ts';

export const INBOUND_HANDLERS: readonly InboundHandler[] = [commentsHandler, messagingHandler, whatsappAccountHandler, whatsappMessagesHandler];
