// The whatsapp module: connecting a WhatsApp Business number with an existing token.
import type { RouteRegistrar } from '../../http/routes.ts';
import { connectWhatsApp } from './routes/connect-whatsapp.ts';

export const whatsappRoutes: RouteRegistrar[] = [connectWhatsApp];
