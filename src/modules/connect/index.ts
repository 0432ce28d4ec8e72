// The connect module: OAuth starts and callbacks, pending choices, and the connect page of ours
// (a page connector's form, an OAuth connector's landing); the pending choice is its resource
// schema. No jobs.
import type { RouteRegistrar } from '../../http/routes.ts';
import { Pending } from './pending.ts';
import { connectCallback } from './routes/connect-callback.ts';
import { connectPage } from './routes/connect-page.ts';
import { getPending } from './routes/get-pending.ts';
import { listPending } from './routes/list-pending.ts';
import { selectPending } from './routes/select-pending.ts';
import { startConnect } from './routes/start-connect.ts';

export const connectRoutes: RouteRegistrar[] = [startConnect, connectCallback, listPending, getPending, selectPending, connectPage];

export const connectSchemas = [Pending];
