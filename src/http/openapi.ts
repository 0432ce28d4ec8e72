// The OpenAPI 3.1 document, built from the routes' own schemas (no second copy). Paths are
// relative to the /api/v1 server, like the contract's.
import swagger from '@fastify/swagger';
import { PLATFORM_NAMES_PHRASE } from '../platforms/registry.ts';
import { ErrorBody } from './errors.ts';
import { CLOSED_OPTIONS_NOTE, finishDocument } from './openapi-document.ts';
import type { Api } from './types.ts';

export const API_PREFIX = '/api/v1';
export const API_VERSION = '1.1.0';

export async function registerOpenApi(app: Api): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Social publishing API',
        version: API_VERSION,
        description:
          `Connect ${PLATFORM_NAMES_PHRASE} accounts; publish and schedule posts; ` +
          'answer comments and messages; run ads; read analytics; receive signed webhooks. ' +
          'A body field or query parameter an operation does not declare is refused with a 400 naming it ' +
          "(objects of fixed shape have additionalProperties: false), except inside platformSpecificData, whose unknown keys come back as the target's warnings. " +
          `platformSpecificData is typed per platform (RedditData, XData …). ${CLOSED_OPTIONS_NOTE}`,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: sk_ followed by 43 characters.' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (document) => finishDocument('openapiObject' in document ? document.openapiObject : document.swaggerObject),
    // Only the API is documented: the sandbox and file routes outside /api/v1 are hidden.
    transform: ({ schema, url }) =>
      url.startsWith(API_PREFIX)
        ? { schema, url: url.slice(API_PREFIX.length) || '/' }
        : { schema: { ...schema, hide: true }, url },
  });
}
