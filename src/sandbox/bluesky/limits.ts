// The PDS's rate limits (bluesky.md §7), in fixed windows of sandbox time, reported on every answer
// in the IETF draft headers ratelimit-limit / -remaining / -reset (epoch seconds) / -policy
// (`{limit};w={seconds}`): the requests of a client (one window for every caller: the sandbox sees
// one address), createSession per identifier (30 in 5 minutes, 300 a day), and record-write points
// per DID (create 3, update 2, delete 1; 5,000 an hour, 35,000 a day). Over one, 429
// RateLimitExceeded with the headers of the window that refused.
import type { RouteContext } from '../core/router.ts';
import { rateLimitExceeded } from './errors.ts';

export interface Policy {
  name: string;
  limit: number;
  windowMs: number;
}

/** Charges `cost` to each policy's window under `key`; the answer carries the tightest window's headers. */
export function charge(ctx: RouteContext, policies: readonly Policy[], key: string, cost = 1): void {
  const now = ctx.state.clock.now();
  let tightest: Record<string, string> | null = null;
  let tightestRemaining = Infinity;
  let refused: Record<string, string> | null = null;
  for (const policy of policies) {
    const id = `${policy.name}:${key}`;
    const current = ctx.state.bluesky.windows.get(id);
    const window = current && now < current.start + policy.windowMs ? current : { start: now, used: 0 };
    const over = window.used + cost > policy.limit;
    if (!over) window.used += cost;
    ctx.state.bluesky.windows.set(id, window);
    const remaining = Math.max(0, policy.limit - window.used);
    const headers = {
      'ratelimit-limit': String(policy.limit),
      'ratelimit-remaining': String(over ? 0 : remaining),
      'ratelimit-reset': String(Math.ceil((window.start + policy.windowMs) / 1000)),
      'ratelimit-policy': `${policy.limit};w=${Math.round(policy.windowMs / 1000)}`,
    };
    if (over && !refused) refused = headers;
    if (remaining < tightestRemaining) {
      tightest = headers;
      tightestRemaining = remaining;
    }
  }
  if (refused) {
    void ctx.reply.headers(refused);
    throw rateLimitExceeded(refused);
  }
  if (tightest) void ctx.reply.headers(tightest);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Every request to the PDS: per client address. */
export const requestPolicies = (ctx: RouteContext): Policy[] => [{ name: 'requests', limit: ctx.state.settings.bluesky.requestsPer5Min, windowMs: 5 * MINUTE }];

export const sessionPolicies = (ctx: RouteContext): Policy[] => [
  { name: 'session-5m', limit: ctx.state.settings.bluesky.sessionsPer5Min, windowMs: 5 * MINUTE },
  { name: 'session-day', limit: ctx.state.settings.bluesky.sessionsPerDay, windowMs: DAY },
];

export const writePolicies = (ctx: RouteContext): Policy[] => [
  { name: 'writes-hour', limit: ctx.state.settings.bluesky.writePointsPerHour, windowMs: HOUR },
  { name: 'writes-day', limit: ctx.state.settings.bluesky.writePointsPerDay, windowMs: DAY },
];

export const WRITE_POINTS = { create: 3, update: 2, delete: 1 } as const;
