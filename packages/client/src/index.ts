// @socialapi/client: a typed client for the social publishing API (docs/guides/sdk.md).
import { SocialApiBase, type Operations } from './client.ts';
import type { components } from './generated/schema.ts';

export type { Answer, Args, ClientOptions, Operations } from './client.ts';
export { AuthenticationError, ConflictError, InvalidRequestError, NetworkError, NotFoundError, RateLimitError, ServerError, SocialApiError } from './errors.ts';
export { OPERATIONS, type OperationId } from './generated/operations.ts';
export type { components, operations, paths, webhooks } from './generated/schema.ts';
export { verifyWebhook, WebhookVerificationError, type EventOf, type EventType, type WebhookEvent, type WebhookInput } from './webhooks.ts';

/** The client: `new SocialApi({ apiKey, baseUrl })`, then one method per operation. */
export const SocialApi = SocialApiBase as unknown as new (...args: ConstructorParameters<typeof SocialApiBase>) => SocialApiBase & Operations;
export type SocialApi = SocialApiBase & Operations;

/** platformSpecificData of one platform: `PlatformOptions<'RedditData'>`. */
export type PlatformOptions<Name extends keyof components['schemas']> = components['schemas'][Name];
