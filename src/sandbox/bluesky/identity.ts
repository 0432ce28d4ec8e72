// Handles and DIDs (bluesky.md §1): com.atproto.identity.resolveHandle at the PDS, and the DID
// documents of plc.directory (`GET /{did}`; 404 `DID not registered` for one it does not know).
import { PlatformError } from '../core/platform-error.ts';
import type { RouteContext } from '../core/router.ts';
import { charge, requestPolicies } from './limits.ts';
import { invalidRequest } from './errors.ts';
import { findAccount } from './people.ts';
import { didDocument } from './sessions.ts';

export function resolveHandle(ctx: RouteContext): unknown {
  charge(ctx, requestPolicies(ctx), 'client');
  const handle = ctx.query.handle;
  if (!handle) throw invalidRequest('Params must have the property "handle"');
  const account = findAccount(ctx.state, handle);
  if (!account || account.did === handle || account.email === handle.toLowerCase()) throw invalidRequest('Unable to resolve handle');
  return { did: account.did };
}

export function plcDocument(ctx: RouteContext): unknown {
  const did = ctx.params.did ?? '';
  const account = did.startsWith('did:plc:') ? ctx.state.people.blueskyAccounts.get(did) : undefined;
  if (!account) throw new PlatformError(404, { message: `DID not registered: ${did}` });
  return didDocument(account);
}
