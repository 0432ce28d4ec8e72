// The control API under `{base}/_sandbox/…` (JSON): what tests and users drive scenarios with.
// Every route calls a SandboxState function of the same meaning, so in-process tests can call
// the functions directly instead. These are the shared routes; each module adds its own
// (`/_sandbox/whatsapp/…`, `/_sandbox/meta/…`) through its descriptor's `control`.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ConsentChoice, OAuthPlatform, RevokeReason } from './model.ts';
import type { FaultInput } from './faults.ts';
import type { SettingsPatch } from './settings.ts';
import type { SandboxState } from './state.ts';

export class ControlError extends Error {
  readonly statusCode = 400;
}

type Json = Record<string, unknown>;

/** A JSON object, or `{}` for anything else (control bodies are forgiving). */
export const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
/** The objects of a JSON array, or `[]` for anything else. */
export const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);

function required(body: Json, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || !value) throw new ControlError(`${key}: required`);
  return value;
}

function platform(state: SandboxState, body: Json): OAuthPlatform {
  const value = required(body, 'platform');
  const known = state.oauthPlatforms;
  if (!known.includes(value as OAuthPlatform)) throw new ControlError(`platform: one of ${known.join(', ')}`);
  return value as OAuthPlatform;
}

export function registerControl(app: FastifyInstance, state: SandboxState): void {
  const ok = (reply: FastifyReply, value: unknown) => reply.send(value ?? { ok: true });

  app.get('/_sandbox', () => ({
    clock: clockReport(state),
    settings: state.settings,
    apps: [...state.apps.values()].map((a) => ({ ...a, clientSecret: a.clientSecret ? '***' : null })),
    people: people(state),
    tokens: state.tokens.size,
  }));
  app.post('/_sandbox/reset', (_req, reply) => {
    state.reset();
    return ok(reply, { ok: true });
  });
  app.get('/_sandbox/people', () => people(state));
  app.post('/_sandbox/seed', (req) => seed(state, obj(req.body)));
  app.post('/_sandbox/apps', (req) => {
    const body = obj(req.body);
    return state.configureApp({
      platform: platform(state, body),
      clientId: required(body, 'clientId'),
      clientSecret: typeof body.clientSecret === 'string' ? body.clientSecret : undefined,
      redirectUris: Array.isArray(body.redirectUris) ? body.redirectUris.map(String) : undefined,
      audited: body.audited === true,
    });
  });
  app.post('/_sandbox/consent', (req, reply) => {
    const body = obj(req.body);
    const decision = body.decision === 'deny' ? 'deny' : 'allow';
    const choice: ConsentChoice = {
      decision,
      subjectId: typeof body.subjectId === 'string' ? body.subjectId : undefined,
      scopes: Array.isArray(body.scopes) ? body.scopes.map(String) : undefined,
      pageIds: Array.isArray(body.pageIds) ? body.pageIds.map(String) : undefined,
    };
    state.setNextConsent(platform(state, body), choice);
    return ok(reply, { ok: true });
  });
  app.post('/_sandbox/tokens/expire', (req) => summary(guard(() => state.expireToken(required(obj(req.body), 'token')))));
  app.post('/_sandbox/tokens/revoke', (req) => {
    const body = obj(req.body);
    const reason = (['logout', 'deauthorized', 'password_changed'] as const).find((r) => r === body.reason) ?? 'logout';
    return summary(guard(() => state.revokeToken(required(body, 'token'), reason satisfies RevokeReason)));
  });
  app.get('/_sandbox/faults', () => ({ faults: state.faults.list() }));
  app.post('/_sandbox/faults', (req) => {
    const body = obj(req.body) as unknown as FaultInput;
    if (!['error', 'server_error', 'rate_limit', 'delay'].includes(body.kind)) throw new ControlError('kind: one of error, server_error, rate_limit, delay');
    for (const name of ['times', 'after'] as const) {
      const value = body[name];
      if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new ControlError(`${name}: a whole number, 0 or more`);
    }
    return state.faults.add(body);
  });
  app.delete('/_sandbox/faults', (_req, reply) => {
    state.faults.clear();
    return ok(reply, { ok: true });
  });
  app.get('/_sandbox/settings', () => state.settings);
  app.patch('/_sandbox/settings', (req) => guard(() => state.updateSettings(obj(req.body) as SettingsPatch)));
  app.get('/_sandbox/clock', () => clockReport(state));
  app.post('/_sandbox/clock/advance', (req) => {
    const body = obj(req.body);
    const ms = typeof body.ms === 'number' ? body.ms : typeof body.seconds === 'number' ? body.seconds * 1000 : NaN;
    guard(() => state.clock.advance(ms));
    return clockReport(state);
  });
  app.get('/_sandbox/requests', (req) => {
    const q = obj(req.query);
    const str = (k: string) => (typeof q[k] === 'string' ? q[k] : undefined);
    return { requests: state.journal.list({ host: str('host'), method: str('method'), path: str('path'), after: str('after') ? Number(str('after')) : undefined }) };
  });
  app.delete('/_sandbox/requests', (_req, reply) => {
    state.journal.clear();
    return ok(reply, { ok: true });
  });
  app.post('/_sandbox/idle', async () => {
    await state.idle();
    return { ok: true };
  });
}

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new ControlError(error instanceof Error ? error.message : String(error));
  }
}

function summary(token: { platform: string; type: string; expiresAt: number | null; revoked: string | null }) {
  return { platform: token.platform, type: token.type, expiresAt: token.expiresAt, revoked: token.revoked };
}

function clockReport(state: SandboxState) {
  const now = state.clock.now();
  return { now, iso: new Date(now).toISOString(), offsetMs: state.clock.offset() };
}

/** Every module's people, under its name, in list order. */
function people(state: SandboxState) {
  return Object.fromEntries(state.modules.flatMap((m) => (m.people ? [[m.name, m.people.list(state)]] : [])));
}

/** Adds each module's people from the value under its name, in list order. */
function seed(state: SandboxState, body: Json) {
  return Object.fromEntries(state.modules.flatMap((m) => (m.people ? [[m.name, m.people.seed(state, body[m.name])]] : [])));
}
