// Starting a connection: a single-use OAuth state and the platform's authorization URL. Shared by
// GET /connect/{platform} and the dashboard's reconnect button.
import type { AppDeps } from '../../deps.ts';
import { errors } from '../../http/errors.ts';
import { PlatformError, toApiError } from '../../platforms/errors.ts';
import { connectPageUrl } from './routes/connect-page.ts';
import { adapterFor, callbackUrl } from './service.ts';
import { createState, pkcePair, STATE_TTL_MS } from './state.ts';

export interface ConnectStart {
  organizationId: string;
  platform: string;
  /** instagram: `instagram` or `facebook`; by default the platform's first login. */
  login?: string;
  externalId: string | null;
  redirectUrl: string | null;
}

export async function authorizationUrl(deps: Pick<AppDeps, 'store' | 'clock' | 'config' | 'platforms' | 'sealer'>, start: ConnectStart): Promise<{ authUrl: string; expiresInSeconds: number }> {
  try {
    const adapter = adapterFor(deps, start.platform);
    const page = adapter.pageConnector;
    if (adapter.connectors.length === 0 && page) {
      const { organizationId, platform, externalId, redirectUrl } = start;
      const state = await createState(deps.store.db, { organizationId, platform, flavour: page.flavour, externalId, redirectUrl, codeVerifierEnc: null, now: deps.clock.now() });
      return { authUrl: connectPageUrl(deps.config, start.platform, state), expiresInSeconds: STATE_TTL_MS / 1000 };
    }
    const flavour = start.login ?? adapter.connectors[0]?.flavour;
    const connector = adapter.connectors.find((c) => c.flavour === flavour);
    if (!connector) throw errors.notSupported(`${start.platform} cannot be connected through OAuth`);
    const pkce = connector.pkce ? pkcePair() : null;
    const state = await createState(deps.store.db, {
      organizationId: start.organizationId,
      platform: start.platform,
      flavour: connector.flavour,
      externalId: start.externalId,
      redirectUrl: start.redirectUrl,
      codeVerifierEnc: pkce ? deps.sealer.seal(pkce.verifier) : null,
      now: deps.clock.now(),
    });
    // A connector with a landing sends the person to that page of ours first; it leads on to the
    // platform with the challenge of the verifier sealed above (landing.ts).
    const redirectUri = callbackUrl(deps.config, start.platform);
    const authUrl = connector.landing
      ? connectPageUrl(deps.config, start.platform, state)
      : connector.authorizeUrl(pkce ? { state, redirectUri, codeChallenge: pkce.challenge } : { state, redirectUri });
    return { authUrl, expiresInSeconds: STATE_TTL_MS / 1000 };
  } catch (error) {
    if (error instanceof PlatformError) throw toApiError(error);
    throw error;
  }
}
