// GET /docs: the API reference, rendered in the browser by Swagger UI (@fastify/swagger-ui) from
// the same document as /api/v1/openapi.json. Everything the page loads comes from this service
// (the plugin serves Swagger UI's own files under /docs/static, and the document at /docs/json);
// its Content-Security-Policy allows nothing else: no other origin, no inline script, no frame.
import swaggerUi from '@fastify/swagger-ui';
import type { Api } from './types.ts';

export const DOCS_PATH = '/docs';

// Swagger UI's bundle adds one <style> element of fixed content; it is allowed by its hash (a new
// version of the bundle that changes it fails test/docs-page-browser.test.ts with the new hash).
const BUNDLE_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

export const DOCS_POLICY =
  `default-src 'none'; script-src 'self'; style-src 'self' ${BUNDLE_STYLE}; img-src 'self' data:; font-src 'self'; connect-src 'self'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";

export async function registerDocsPage(app: Api): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: DOCS_POLICY,
    theme: { title: 'Social publishing API · reference' },
    // No badge from the public validator (another origin); links to operations stay shareable.
    uiConfig: { validatorUrl: null, deepLinking: true, displayOperationId: true },
  });
}
