// The per-key limit: a fixed one-minute window per API key, in memory on one node, or in Redis
// when REDIS_URL is set so every API node spends one budget. Answers carry RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset; a 429 also Retry-After, and has no code.
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { errors } from './errors.ts';
import type { Api } from './types.ts';

const ALL_HEADERS = { 'ratelimit-limit': true, 'ratelimit-remaining': true, 'ratelimit-reset': true, 'retry-after': true } as const;

export async function registerRateLimit(api: Api, defaultPerMinute: number, redis: Redis | null): Promise<void> {
  await api.register(rateLimit, {
    global: true,
    // Route-level onRequest hooks run after the scope's own, so the auth hook has set the caller.
    hook: 'onRequest',
    timeWindow: 60_000,
    max: (request) => request.caller?.rateLimit ?? defaultPerMinute,
    keyGenerator: (request) => (request.caller ? `key:${request.caller.keyId}` : `ip:${request.ip}`),
    enableDraftSpec: true,
    addHeaders: ALL_HEADERS,
    addHeadersOnExceeding: ALL_HEADERS,
    ...(redis ? { redis, nameSpace: 'socialapi:rl:' } : {}),
    // A Redis outage must not take the API down with it: requests pass unlimited meanwhile.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      errors.rateLimited(`Rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`),
  });
}
