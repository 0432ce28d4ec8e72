// The whatsapp module: connecting a WhatsApp Business number with an existing token, the
// number's record and registration, messages, message templates and media (contract "WhatsApp").
import type { RouteRegistrar } from '../../http/routes.ts';
import { connectWhatsApp } from './routes/connect-whatsapp.ts';
import { createTemplate } from './routes/create-template.ts';
import { deleteMedia } from './routes/delete-media.ts';
import { deleteTemplate } from './routes/delete-template.ts';
import { getMedia } from './routes/get-media.ts';
import { getPhoneNumber } from './routes/get-phone-number.ts';
import { getTemplate } from './routes/get-template.ts';
import { listTemplates } from './routes/list-templates.ts';
import { markMessageReadRoute } from './routes/mark-message-read.ts';
import { registerPhoneNumber } from './routes/register-phone-number.ts';
import { sendMessage } from './routes/send-message.ts';
import { uploadMedia } from './routes/upload-media.ts';
import { Media, PhoneNumber, Template } from './schemas.ts';

export const whatsappRoutes: RouteRegistrar[] = [connectWhatsApp, getPhoneNumber, registerPhoneNumber, listTemplates, createTemplate, getTemplate, deleteTemplate, uploadMedia, getMedia, deleteMedia, sendMessage, markMessageReadRoute];

export const whatsappSchemas = [PhoneNumber, Template, Media];
