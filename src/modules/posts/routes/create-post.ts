import { Type } from 'typebox';
import { callerOf, tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { createPost as create } from '../create.ts';
import { bodyHash, claimRequest, releaseRequest } from '../idempotency.ts';
import { findPost } from '../repo.ts';
import { NewPost, presentPost } from '../schemas.ts';

export function createPost(api: Api): void {
  api.post(
    '/posts',
    {
      schema: {
        operationId: 'createPost',
        tags: ['Posts'],
        summary: 'Create a post: a draft, scheduled (scheduledFor) or published now (publishNow)',
        headers: Type.Object({
          'x-request-id': Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Idempotency key, kept 24 hours: the same key and body answer the stored post (200).' })),
        }),
        body: NewPost,
        response: {
          201: Type.Object({ post: Type.Ref('Post') }, { description: 'Created.' }),
          200: Type.Object({ post: Type.Ref('Post') }, { description: 'Replay of an earlier request with the same x-request-id.' }),
          ...errorResponses(400, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const { deps } = request.server;
      const tenant = tenantOf(request);
      const key = request.headers['x-request-id'] ?? null;
      if (key !== null) {
        const claim = await claimRequest(deps.store.db, tenant.organizationId, key, bodyHash(request.body), deps.clock.now());
        if (claim.kind === 'replay') {
          const found = await findPost(tenant, claim.postId);
          if (!found) throw errors.notFound('Post');
          return reply.code(200).send({ post: presentPost(found.post, found.targets) });
        }
      }
      try {
        const created = await create(deps, tenant, callerOf(request), request.body, key);
        return await reply.code(201).send({ post: presentPost(created.post, created.targets) });
      } catch (error) {
        if (key !== null) await releaseRequest(deps.store.db, tenant.organizationId, key);
        throw error;
      }
    },
  );
}
