// The media module: its operations, the files platforms fetch (outside /api/v1), its resource
// schema, and the daily cleanup job.
import type { AppDeps } from '../../deps.ts';
import type { RouteRegistrar } from '../../http/routes.ts';
import { mediaCleanupJob } from './cleanup-job.ts';
import { registerMediaFiles } from './files-route.ts';
import { createMedia } from './routes/create-media.ts';
import { getMedia } from './routes/get-media.ts';
import { listMedia } from './routes/list-media.ts';
import { Media } from './schemas.ts';

export const mediaRoutes: RouteRegistrar[] = [listMedia, getMedia, createMedia];

/** Served outside /api/v1: no key, no rate limit, not in the API document. */
export const mediaFileRoutes: RouteRegistrar[] = [registerMediaFiles];

export const mediaSchemas = [Media];

export function mediaJobs(deps: AppDeps) {
  return [mediaCleanupJob(deps)];
}
