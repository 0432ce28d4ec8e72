// The connect module: OAuth starts and callbacks, pending choices, the WhatsApp embedded signup
// page and the connect page of platforms that sign in on a page of ours; the pending choice is its resource schema. No jobs.
import type { RouteRegistrar } from '../../http/routes.ts';
import { Pending } from './pending.ts';
import { connectCallback } from './routes/connect-callback.ts';
import { connectPage } from './routes/connect-page.ts';
import { getPending } from './routes/get-pending.ts';
import { listPending } from './routes/list-pending.ts';
import { selectPending } from './routes/select-pending.ts';
import { startConnect } from './routes/start-connect.ts';
import { whatsappSignup } from './routes/whatsapp-signup.ts';

export const connectRoutes: RouteRegistrar[] = [startConnect, connectCallback, listPending, getPending, selectPending, whatsappSignup, connectPage];

export const connectSchemas = [Pending];
