// Control-API route of the pinterest module: `POST /_sandbox/pinterest/metrics {pinId,
// impressions?, saves?, pinClicks?, outboundClicks?, comments?, reactions?, videoViews?}` sets
// the counts pin analytics report for a Pin.
import type { FastifyInstance } from 'fastify';
import { ControlError, obj } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';

export function registerPinterestControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/pinterest/metrics', (req) => {
    const body = obj(req.body);
    const pin = typeof body.pinId === 'string' ? state.pinterest.pins.get(body.pinId) : undefined;
    if (!pin) throw new ControlError('pinId: a Pin id the sandbox knows');
    for (const key of Object.keys(pin.metrics) as Array<keyof typeof pin.metrics>) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ControlError(`${key}: a whole number, 0 or more`);
      pin.metrics[key] = value;
    }
    state.changed();
    return { ok: true, pinId: pin.id, metrics: pin.metrics };
  });
}
