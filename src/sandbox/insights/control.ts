// Control-API routes of insights (`/_sandbox/insights/…`, JSON):
//   POST   /_sandbox/insights/retired {metric, host?}   the platform renamed `metric`: asking for it fails
//   DELETE /_sandbox/insights/retired                   every retired metric is served again
// (`POST /_sandbox/insights/reddit-votes` is the reddit module's: reddit/control.ts.)
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

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
}
