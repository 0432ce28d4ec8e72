// GET /: where a newcomer who opens the service's address finds what to read next. The API
// reference page (/docs) is linked once a route serves it, so the link never leads to a 404.
import { MCP_PATH } from '../mcp/oauth/urls.ts';
import { DOCS_PATH } from './docs-page.ts';
import { API_PREFIX, API_VERSION } from './openapi.ts';
import type { Api } from './types.ts';

export function registerFrontPage(app: Api, dashboardPrefix: string): void {
  const base = app.deps.config.publicBaseUrl.replace(/\/+$/, '');
  app.get('/', { schema: { hide: true } }, () => ({
    name: 'socialapi',
    title: 'Social publishing API',
    version: API_VERSION,
    links: {
      ...(app.hasRoute({ method: 'GET', url: DOCS_PATH }) ? { docs: `${base}${DOCS_PATH}` } : {}),
      openapi: `${base}${API_PREFIX}/openapi.json`,
      dashboard: `${base}${dashboardPrefix}`,
      mcp: `${base}${MCP_PATH}`,
      health: `${base}/healthz`,
    },
    usage: `Every operation is under ${base}${API_PREFIX}, with Authorization: Bearer sk_… (a key from \`socialapi keys create\`); the OpenAPI document lists them.`,
  }));
}
