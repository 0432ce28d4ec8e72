// Connecting: what the OAuth callback and the pending choice do once the state or the pending
// connection has been claimed. Platform calls happen before the transaction; the account rows,
// their events and refresh jobs are written together.
import type { AccountRow } from '../../db/schema.ts';
import type { ConnectErrorCode } from '../../http/errors.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import type { AppDeps } from '../../deps.ts';
import { PlatformError } from '../../platforms/errors.ts';
import type { ConnectedAccount, ConnectOutcome, PlatformAdapter } from '../../platforms/types.ts';
import { createPending } from './pending.ts';
import { saveConnectedAccount } from './save-account.ts';

export type ConnectResult =
  | { kind: 'connected'; accounts: AccountRow[] }
  | { kind: 'pending'; pendingId: string }
  /** `error` is a ConnectErrorCode, or the platform's own OAuth `error` passed on by the callback. */
  | { kind: 'failed'; error: string; message: string };

export const connectFailed = (error: ConnectErrorCode, message: string): ConnectResult => ({ kind: 'failed', error, message });

export interface ConnectTarget {
  organizationId: string;
  platform: string;
  flavour: string;
  externalId: string | null;
  redirectUrl: string | null;
}

/** The callback URL registered with every platform app: one per platform. */
export function callbackUrl(config: AppDeps['config'], platform: string): string {
  return `${config.publicBaseUrl}${API_PREFIX}/connect/${platform}/callback`;
}

export function adapterFor(deps: Pick<AppDeps, 'platforms'>, platform: string): PlatformAdapter {
  const adapter = deps.platforms.of(platform);
  if (!adapter) throw new PlatformError('not_supported', `no adapter for ${platform}`, { platform });
  return adapter;
}

export async function storeAccounts(deps: Pick<AppDeps, 'store' | 'sealer' | 'clock' | 'platforms'>, target: ConnectTarget, accounts: ConnectedAccount[]): Promise<AccountRow[]> {
  const refreshable = adapterFor(deps, target.platform).refresher !== undefined;
  const now = deps.clock.now();
  return deps.store.db.transaction().execute(async (trx) => {
    const rows: AccountRow[] = [];
    for (const account of accounts) {
      rows.push(await saveConnectedAccount(trx, deps.store, deps.sealer, { ...target, account, refreshable, now }));
    }
    return rows;
  });
}

/** Exchanges the callback's code and connects the account, or records the choice to make. */
export async function completeConnect(
  deps: Pick<AppDeps, 'store' | 'sealer' | 'clock' | 'config' | 'platforms'>,
  target: ConnectTarget,
  code: string,
  /** PKCE: the verifier kept with the state. */
  codeVerifier: string | null = null,
): Promise<ConnectResult> {
  return settled(target, async () => {
    const connector = adapterFor(deps, target.platform).connectors.find((c) => c.flavour === target.flavour);
    if (!connector) throw new PlatformError('not_supported', `${target.platform} has no ${target.flavour} login`, { platform: target.platform });
    const exchange = { code, redirectUri: callbackUrl(deps.config, target.platform), now: deps.clock.now() };
    return settleOutcome(deps, target, await connector.complete(codeVerifier === null ? exchange : { ...exchange, codeVerifier }));
  });
}

/** A platform's refusal while connecting is the connection's failure, said in the platform's words. */
export async function settled(target: ConnectTarget, connect: () => Promise<ConnectResult>): Promise<ConnectResult> {
  try {
    return await connect();
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    return connectFailed(error.kind === 'not_supported' ? 'not_supported' : 'platform_error', `${target.platform}: ${error.message}`);
  }
}

/** What a sign-in yielded: the account stored, or the choice to make recorded as a pending connection. */
export async function settleOutcome(deps: Pick<AppDeps, 'store' | 'sealer' | 'clock' | 'platforms'>, target: ConnectTarget, outcome: ConnectOutcome): Promise<ConnectResult> {
  const adapter = adapterFor(deps, target.platform);
  if (outcome.kind === 'account') return { kind: 'connected', accounts: await storeAccounts(deps, target, [outcome.account]) };

  if (outcome.options.length === 0) {
    return connectFailed('nothing_granted', outcome.nothing ?? `The ${target.platform} consent granted no ${target.platform === 'facebook' ? 'Page' : 'account'} to connect.`);
  }
  if (outcome.options.length === 1 && adapter.choices) {
    const accounts = await adapter.choices.resolve({ userToken: outcome.userToken.accessToken, token: outcome.userToken, optionIds: outcome.options.map((o) => o.id), now: deps.clock.now() });
    return { kind: 'connected', accounts: await storeAccounts(deps, target, accounts) };
  }
  const now = deps.clock.now();
  const pendingId = await deps.store.db.transaction().execute((trx) =>
    createPending(trx, deps.store, deps.sealer, { ...target, userToken: outcome.userToken, options: outcome.options, now }),
  );
  return { kind: 'pending', pendingId };
}
