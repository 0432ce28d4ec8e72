// Control routes of the platform webhooks the sandbox sends: what it sent, and one more sent on
// demand (`{appId, object, entry}`).
import type { FastifyInstance } from 'fastify';
import { ControlError } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import { notify } from './deliver.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

function required(body: Json, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || !value) throw new ControlError(`${key}: required`);
  return value;
}

export function registerWebhooksControl(app: FastifyInstance, state: SandboxState): void {
  app.get('/_sandbox/webhooks', () => ({ subscriptions: [...state.webhooks.subscriptions.values()], deliveries: state.webhooks.deliveries }));
  app.post('/_sandbox/webhooks/notify', async (req) => {
    const body = obj(req.body);
    const statuses = await notify(state, required(body, 'appId'), { object: required(body, 'object'), entry: Array.isArray(body.entry) ? body.entry : [] });
    return { statuses };
  });
}
