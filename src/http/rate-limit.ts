// The per-key limit: a fixed one-minute window per API key, counted in this process's memory,
// or in Redis when REDIS_URL is set so that every API node spends one budget. Every
// authenticated answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; a 429
// also Retry-After, and has no code. Public routes (no caller) are not limited.
//
// Our own instead of @fastify/rate-limit: that plugin's hook went through five promises per
// request and cost about as much as the key lookup the cache had just removed (measured with
// `npm run bench`); in memory, this one is a Map lookup.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from '../lib/clock.ts';
import type { Caller } from './caller.ts';
import { errors, type ApiError } from './errors.ts';
import type { Api } from './types.ts';

const WINDOW_MS = 60_000;
const REDIS_PREFIX = 'socialapi:rl:';

/** A key's window after one more request. */
export interface Usage {
  count: number;
  /** Epoch ms when the window ends. */
  resetAt: number;
}

export interface WindowCounter {
  /** Counts one request of `key` at `now`. In memory synchronously; in Redis a promise. */
  hit(key: string, now: number): Usage | Promise<Usage>;
}

export function memoryCounter(): WindowCounter {
  const windows = new Map<string, Usage>();
  let sweepAt = 0;
  return {
    hit(key, now) {
      // Once a window's length, forget the windows that ended, so idle keys do not pile up.
      if (now >= sweepAt) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        sweepAt = now + WINDOW_MS;
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + WINDOW_MS };
        windows.set(key, window);
      }
      window.count++;
      return { count: window.count, resetAt: window.resetAt };
    },
  };
}

// INCR and the expiry in one atomic step: the first request of a window starts its clock.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type RedisWithHit = Redis & { socialapiRateHit(key: string, windowMs: number): Promise<[number, number]> };

export function redisCounter(redis: Redis): WindowCounter {
  redis.defineCommand('socialapiRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const client = redis as RedisWithHit;
  return {
    async hit(key, now) {
      const [count, ttl] = await client.socialapiRateHit(REDIS_PREFIX + key, WINDOW_MS);
      return { count, resetAt: now + ttl };
    },
  };
}

/** Sets the headers; the 429 to answer when the budget is spent. */
function apply(reply: FastifyReply, max: number, usage: Usage | null, now: number): ApiError | undefined {
  // Redis unreachable: the request passes unlimited rather than the API going down with it.
  const count = usage?.count ?? 0;
  const resetSeconds = usage ? Math.max(0, Math.ceil((usage.resetAt - now) / 1000)) : Math.ceil(WINDOW_MS / 1000);
  reply.header('ratelimit-limit', max);
  reply.header('ratelimit-remaining', Math.max(0, max - count));
  reply.header('ratelimit-reset', resetSeconds);
  if (count <= max) return undefined;
  reply.header('retry-after', resetSeconds);
  return errors.rateLimited(`Rate limit of ${max} requests per minute exceeded; retry in ${resetSeconds} s`);
}

/** One budget per key, shared by the API scope and /mcp (which counts the messages no route runs for). */
export interface RateLimiter {
  /** Counts `count` requests of the caller, sets the headers, and answers the 429 to throw, if any. */
  charge(request: FastifyRequest, reply: FastifyReply, caller: Pick<Caller, 'keyId' | 'rateLimit'>, count?: number): Promise<ApiError | undefined> | ApiError | undefined;
}

export function createRateLimiter(defaultPerMinute: number, redis: Redis | null, clock: Clock): RateLimiter {
  const counter = redis ? redisCounter(redis) : memoryCounter();
  let warnedAt = -Infinity;
  return {
    charge(request, reply, caller, count = 1) {
      const max = caller.rateLimit ?? defaultPerMinute;
      const now = clock.now();
      // A batch of n messages is n hits; the last one's window is the one answered.
      let usage = counter.hit(caller.keyId, now);
      for (let i = 1; i < count; i++) usage = usage instanceof Promise ? usage.then(() => counter.hit(caller.keyId, now)) : counter.hit(caller.keyId, now);
      if (!(usage instanceof Promise)) return apply(reply, max, usage, now);
      return usage.then(
        (counted) => apply(reply, max, counted, now),
        (error: unknown) => {
          // Once a minute at most: an outage must not flood the log with one line per request.
          if (now - warnedAt >= WINDOW_MS) {
            warnedAt = now;
            request.log.warn({ err: error }, 'the rate-limit store is unreachable; requests pass unlimited');
          }
          return apply(reply, max, null, now);
        },
      );
    },
  };
}

/** Registers the limit on the API scope; call after registerAuth, whose hook finds the caller. */
export function registerRateLimit(api: Api, limiter: RateLimiter): void {
  api.addHook('onRequest', (request, reply, done) => {
    const caller = request.caller;
    if (!caller) {
      done();
      return;
    }
    const refusal = limiter.charge(request, reply, caller);
    if (refusal instanceof Promise) refusal.then(done, done);
    else done(refusal);
  });
}
