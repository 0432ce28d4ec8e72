// The Fastify instance type every route file uses: schemas declared with TypeBox type the handler.
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.ts';
import type { Store } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { Sealer } from '../lib/crypto.ts';
import type { Caller } from '../modules/keys/service.ts';
import type { SandboxState } from '../sandbox/index.ts';

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the app is built from; tests build it from their own. */
export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  sealer: Sealer;
  /** The in-process platform sandbox, served at /sandbox, in sandbox mode without PLATFORM_API_BASE. */
  sandbox: SandboxState | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
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
