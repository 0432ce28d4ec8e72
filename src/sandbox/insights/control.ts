// Control-API routes of insights (`/_sandbox/insights/…`, JSON):
//   POST   /_sandbox/insights/retired {metric, host?}   the platform renamed `metric`: asking for it fails
//   DELETE /_sandbox/insights/retired                   every retired metric is served again
//   POST   /_sandbox/insights/reddit-votes {thingId, ups, downs}   a reddit link's votes (its score is ups − downs)
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

function count(body: Json, key: string): number {
  const value = body[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ControlError(`${key}: a whole number, 0 or more`);
  return value;
}

export function registerInsightsControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/insights/retired', (req) => {
    const body = obj(req.body);
    const metric = body.metric;
    if (typeof metric !== 'string' || !/^[a-z_]{1,80}$/.test(metric)) throw new ControlError('metric: required, a platform metric name');
    const host = typeof body.host === 'string' && body.host ? body.host : '*';
    state.insights.retired.set(`${host} ${metric}`, true);
    return { ok: true, host, metric };
  });
  app.delete('/_sandbox/insights/retired', () => {
    state.insights.retired.clear();
    return { ok: true };
  });
  app.post('/_sandbox/insights/reddit-votes', (req) => {
    const body = obj(req.body);
    const thingId = body.thingId;
    if (typeof thingId !== 'string' || !state.reddit.things.has(thingId)) throw new ControlError('thingId: a reddit fullname the sandbox knows (t3_…)');
    const votes = { ups: count(body, 'ups'), downs: count(body, 'downs') };
    state.insights.redditVotes.set(thingId, votes);
    return { ok: true, thingId, ...votes };
  });
}
