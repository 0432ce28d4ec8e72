// JWT-shaped tokens: base64url header.payload.signature, signed with HMAC-SHA256 over the
// sandbox's seed, as the PDS signs its session tokens with its own secret. Service tokens are
// ES256K with the account's key in reality; here only the sandbox's own video service reads them,
// so they are signed the same way.
import { createHmac } from 'node:crypto';
import { obj } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function signature(state: SandboxState, signed: string): string {
  return createHmac('sha256', `sandbox-bluesky:${state.options.seed ?? 'sandbox'}`).update(signed).digest('base64url');
}

export function signJwt(state: SandboxState, header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const signed = `${b64(header)}.${b64(payload)}`;
  return `${signed}.${signature(state, signed)}`;
}

/** The payload of a JWT the sandbox signed, or null (malformed, or another signer's). */
export function readJwt(state: SandboxState, token: string): Record<string, unknown> | null {
  const [header, payload, sig, ...rest] = token.split('.');
  if (!header || !payload || !sig || rest.length) return null;
  if (signature(state, `${header}.${payload}`) !== sig) return null;
  try {
    return obj(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    return null;
  }
}
