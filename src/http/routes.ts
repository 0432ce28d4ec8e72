// How routes reach the app: each route file exports a registrar (one operation each), each
// module's index lists its own, and the composition root (src/composition.ts) joins the lists in
// the order the API document shows them. http/ knows this shape, never the modules.
import type { TSchema } from 'typebox';
import type { Api } from './types.ts';

/** Registers one operation (or, outside /api/v1, one public resource) on the instance. */
export type RouteRegistrar = (api: Api) => void;

/** What the app serves, as composed from the modules. */
export interface AppRoutes {
  /** Operations under /api/v1, behind the auth hook and the rate limit. */
  api: RouteRegistrar[];
  /** Routes outside /api/v1 (the media files platforms fetch). */
  root: RouteRegistrar[];
  /** Resource schemas referenced by $ref from routes; they become components in openapi.json. */
  schemas: TSchema[];
}
