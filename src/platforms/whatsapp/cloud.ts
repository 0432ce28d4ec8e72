// One Cloud API call: the real graph.facebook.com URL with the account's token as a Bearer
// header (kept out of URLs and logs), answered through the WhatsApp error table.
import type { PlatformContext } from '../context.ts';
import type { PlatformRequest } from '../http.ts';
import type { Json } from '../json.ts';
import { FACEBOOK_GRAPH } from '../meta/graph.ts';
import { whatsappBody } from './errors.ts';

export type CloudCall = (method: 'GET' | 'POST' | 'DELETE', path: string, extra?: Omit<PlatformRequest, 'method' | 'url' | 'bearer'>) => Promise<Json>;

export function cloudCaller(ctx: PlatformContext, token: string): CloudCall {
  return async (method, path, extra = {}) => {
    const response = await ctx.http.send('whatsapp', { ...extra, method, url: `${FACEBOOK_GRAPH}/${ctx.graphVersion}${path}`, bearer: token });
    return whatsappBody(response);
  };
}
