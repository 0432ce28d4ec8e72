// The Fastify instance type every route file uses: schemas declared with TypeBox type the handler.
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import type { Caller } from './caller.ts';

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Compiles every route schema not compiled yet (they are on first use); how many it compiled. */
    compileSchemas(): number;
  }
  interface FastifyRequest {
    /** The authenticated caller; set by the auth hook on every non-public API route. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** A public route (OAuth callback, platform webhook) is authenticated by other means, and not rate limited. */
    public?: boolean;
  }
}
